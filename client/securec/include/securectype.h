/*
 * Types and limits of the bounds-checked C functions CANN programs use
 * (securec.h, from CANN's libc_sec.so). Written for npud from the API's
 * documented behaviour.
 */
#ifndef SECURECTYPE_H_
#define SECURECTYPE_H_

#include <stddef.h>

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

/* Largest size the functions accept for a destination. */
#define SECUREC_MEM_MAX_LEN 0x7fffffffUL
#define SECUREC_STRING_MAX_LEN 0x7fffffffUL

#endif /* SECURECTYPE_H_ */
