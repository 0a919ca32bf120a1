#define _XOPEN_SOURCE 700
#include <wchar.h>
#include "CWidth.h"

int cwidth_wcwidth(wchar_t c) {
    return wcwidth(c);
}
