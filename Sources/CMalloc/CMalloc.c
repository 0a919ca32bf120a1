// Nothing to define: the header declares what glibc already has.
#include "CMalloc.h"
