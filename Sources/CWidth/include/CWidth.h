// glibc declares wcwidth(3) only under _XOPEN_SOURCE, which Swift's Glibc module does not
// set; this header exposes it to TodoTerminal, nothing more.
#ifndef CWIDTH_H
#define CWIDTH_H
#include <wchar.h>

/// The columns a terminal gives `c` under the current LC_CTYPE: 2 wide, 0 combining,
/// -1 not printable.
int cwidth_wcwidth(wchar_t c);

#endif
