/*
 * Bounds-checked memory and string functions (CANN's securec.h, served by
 * npud's libc_sec.so). Each takes the destination's size and fails instead
 * of writing past it:
 *   EOK                 done
 *   ERANGE              a destination size of 0 or past the maximum:
 *                       nothing written
 *   EINVAL              a null destination: nothing written
 *   EINVAL_AND_RESET    a null source: the destination was cleared
 *   ERANGE_AND_RESET    the result does not fit: the destination was cleared
 *                       (for strings: dest[0] = '\0')
 *   EOVERLAP_AND_RESET  source and destination overlap: cleared
 * The printf forms return the length written, or -1 (the destination then
 * holds an empty string).
 */
#ifndef SECUREC_H_
#define SECUREC_H_

#include <stdarg.h>

#include "securectype.h"

#ifndef SECUREC_API
#define SECUREC_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

SECUREC_API errno_t memset_s(void* dest, size_t destMax, int c, size_t count);
SECUREC_API errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count);
SECUREC_API errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count);
SECUREC_API errno_t strcpy_s(char* strDest, size_t destMax, const char* strSrc);
SECUREC_API errno_t strncpy_s(char* strDest, size_t destMax, const char* strSrc, size_t count);
SECUREC_API errno_t strcat_s(char* strDest, size_t destMax, const char* strSrc);
SECUREC_API errno_t strncat_s(char* strDest, size_t destMax, const char* strSrc, size_t count);
SECUREC_API int sprintf_s(char* strDest, size_t destMax, const char* format, ...);
SECUREC_API int snprintf_s(char* strDest, size_t destMax, size_t count, const char* format, ...);
SECUREC_API int vsprintf_s(char* strDest, size_t destMax, const char* format, va_list argList);
SECUREC_API int vsnprintf_s(char* strDest, size_t destMax, size_t count, const char* format,
                            va_list argList);

#ifdef __cplusplus
}
#endif

#endif /* SECUREC_H_ */
