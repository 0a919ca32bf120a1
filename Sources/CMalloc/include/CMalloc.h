// glibc's malloc tuning (mallopt and its M_* parameters) is declared in malloc.h, which
// Swift's Glibc module leaves out; this header exposes it to todoctl, nothing more. todoctl
// is a static executable, where looking the function up by name (GlibcFunction) finds nothing.
#ifndef CMALLOC_H
#define CMALLOC_H
#include <malloc.h>
#endif
