/*
 * Types, limits and the standard headers of the bounds-checked C functions
 * CANN programs use (securec.h, from CANN's libc_sec.so). Written for npud
 * from the API's documented behaviour. Like CANN's, it brings in the C
 * headers the functions' types come from (stdio.h for FILE, wchar.h for
 * wchar_t, ...), which programs that include only securec.h rely on.
 */
#ifndef SECURECTYPE_H_
#define SECURECTYPE_H_

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#ifndef errno_t
typedef int errno_t;
#endif

/* Results. The "_AND_RESET" forms say the destination was cleared. */
#ifndef EOK
#define EOK 0
#endif
#ifndef EINVAL
#define EINVAL 22
#endif
#ifndef ERANGE
#define ERANGE 34
#endif
#define EINVAL_AND_RESET (22 | 128)
#define ERANGE_AND_RESET (34 | 128)
#define EOVERLAP_AND_RESET (54 | 128)

/* Largest size the functions accept for a destination (in bytes; the wide
   functions' limits count wide characters). */
#define SECUREC_MEM_MAX_LEN 0x7fffffffUL
#define SECUREC_STRING_MAX_LEN 0x7fffffffUL
#define SECUREC_WCHAR_MEM_MAX_LEN (SECUREC_MEM_MAX_LEN / sizeof(wchar_t))
#define SECUREC_WCHAR_STRING_MAX_LEN (SECUREC_STRING_MAX_LEN / sizeof(wchar_t))

#endif /* SECURECTYPE_H_ */
