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
 * holds an empty string); the _truncated_ forms keep what fits and return
 * its length. The scanf forms return the number of fields assigned, or -1
 * (EOF) when the input ends before the first conversion or the arguments are
 * wrong; %c, %s and %[ take two arguments, the buffer and its size in
 * characters (a size_t), and a field that does not fit ends the scan with
 * the buffer holding an empty string. Sizes of the wide functions count wide
 * characters.
 */
#ifndef SECUREC_H_
#define SECUREC_H_

#include <errno.h>
#include <stdarg.h>

#include "securectype.h"

#ifndef SECUREC_API
#define SECUREC_API __attribute__((visibility("default")))
#endif
/* printf-style checking of the arguments, off unless asked for (as in
   CANN's, so that programs built with -Werror keep building). */
#if defined(SECUREC_SUPPORT_FORMAT_WARNING) && SECUREC_SUPPORT_FORMAT_WARNING
#define SECUREC_ATTRIBUTE(x, y) __attribute__((__format__(printf, (x), (y))))
#else
#define SECUREC_ATTRIBUTE(x, y)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The library's version: a string, and its number in *verNumber. */
SECUREC_API const char* GetHwSecureCVersion(unsigned short* verNumber);

SECUREC_API errno_t memset_s(void* dest, size_t destMax, int c, size_t count);
SECUREC_API errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count);
SECUREC_API errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count);
SECUREC_API errno_t strcpy_s(char* strDest, size_t destMax, const char* strSrc);
SECUREC_API errno_t strncpy_s(char* strDest, size_t destMax, const char* strSrc, size_t count);
SECUREC_API errno_t strcat_s(char* strDest, size_t destMax, const char* strSrc);
SECUREC_API errno_t strncat_s(char* strDest, size_t destMax, const char* strSrc, size_t count);
SECUREC_API char* strtok_s(char* strToken, const char* strDelimit, char** context);

SECUREC_API int sprintf_s(char* strDest, size_t destMax, const char* format, ...)
    SECUREC_ATTRIBUTE(3, 4);
SECUREC_API int snprintf_s(char* strDest, size_t destMax, size_t count, const char* format, ...)
    SECUREC_ATTRIBUTE(4, 5);
SECUREC_API int vsprintf_s(char* strDest, size_t destMax, const char* format, va_list argList)
    SECUREC_ATTRIBUTE(3, 0);
SECUREC_API int vsnprintf_s(char* strDest, size_t destMax, size_t count, const char* format,
                            va_list argList) SECUREC_ATTRIBUTE(4, 0);
SECUREC_API int snprintf_truncated_s(char* strDest, size_t destMax, const char* format, ...)
    SECUREC_ATTRIBUTE(3, 4);
SECUREC_API int vsnprintf_truncated_s(char* strDest, size_t destMax, const char* format,
                                      va_list argList) SECUREC_ATTRIBUTE(3, 0);

SECUREC_API int scanf_s(const char* format, ...);
SECUREC_API int vscanf_s(const char* format, va_list argList);
SECUREC_API int sscanf_s(const char* buffer, const char* format, ...);
SECUREC_API int vsscanf_s(const char* buffer, const char* format, va_list argList);
SECUREC_API int fscanf_s(FILE* stream, const char* format, ...);
SECUREC_API int vfscanf_s(FILE* stream, const char* format, va_list argList);
/* A line of stdin without its newline, at most destMax - 1 characters. */
SECUREC_API char* gets_s(char* buffer, size_t destMax);

SECUREC_API errno_t wmemcpy_s(wchar_t* dest, size_t destMax, const wchar_t* src, size_t count);
SECUREC_API errno_t wmemmove_s(wchar_t* dest, size_t destMax, const wchar_t* src, size_t count);
SECUREC_API errno_t wcscpy_s(wchar_t* strDest, size_t destMax, const wchar_t* strSrc);
SECUREC_API errno_t wcsncpy_s(wchar_t* strDest, size_t destMax, const wchar_t* strSrc,
                              size_t count);
SECUREC_API errno_t wcscat_s(wchar_t* strDest, size_t destMax, const wchar_t* strSrc);
SECUREC_API errno_t wcsncat_s(wchar_t* strDest, size_t destMax, const wchar_t* strSrc,
                              size_t count);
SECUREC_API wchar_t* wcstok_s(wchar_t* strToken, const wchar_t* strDelimit, wchar_t** context);
SECUREC_API int swprintf_s(wchar_t* strDest, size_t destMax, const wchar_t* format, ...);
SECUREC_API int vswprintf_s(wchar_t* strDest, size_t destMax, const wchar_t* format,
                            va_list argList);
SECUREC_API int wscanf_s(const wchar_t* format, ...);
SECUREC_API int vwscanf_s(const wchar_t* format, va_list argList);
SECUREC_API int swscanf_s(const wchar_t* buffer, const wchar_t* format, ...);
SECUREC_API int vswscanf_s(const wchar_t* buffer, const wchar_t* format, va_list argList);
SECUREC_API int fwscanf_s(FILE* stream, const wchar_t* format, ...);
SECUREC_API int vfwscanf_s(FILE* stream, const wchar_t* format, va_list argList);

#ifdef __cplusplus
}
#endif

#endif /* SECUREC_H_ */
