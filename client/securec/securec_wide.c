/*
 * The wide-character functions of libc_sec.so: the memory and string calls
 * of securec.c for wchar_t, with sizes counted in wide characters and the
 * same results and destination states.
 */
#include <stdint.h>

#include "securec.h"

static int BadWideSize(size_t destMax, size_t limit) { return destMax == 0 || destMax > limit; }

static int WideOverlap(const wchar_t* a, size_t aLen, const wchar_t* b, size_t bLen) {
  const uintptr_t x = (uintptr_t)a;
  const uintptr_t y = (uintptr_t)b;
  return x < y + bLen * sizeof(wchar_t) && y < x + aLen * sizeof(wchar_t);
}

static errno_t WideCopyChecks(wchar_t* dest, size_t destMax, const wchar_t* src, size_t count) {
  if (BadWideSize(destMax, SECUREC_WCHAR_MEM_MAX_LEN)) return ERANGE;
  if (dest == NULL) return EINVAL;
  if (src == NULL) {
    wmemset(dest, 0, destMax);
    return EINVAL_AND_RESET;
  }
  if (count > destMax) {
    wmemset(dest, 0, destMax);
    return ERANGE_AND_RESET;
  }
  return EOK;
}

errno_t wmemcpy_s(wchar_t* dest, size_t destMax, const wchar_t* src, size_t count) {
  const errno_t checked = WideCopyChecks(dest, destMax, src, count);
  if (checked != EOK) return checked;
  if (count > 0 && WideOverlap(dest, count, src, count)) {
    wmemset(dest, 0, destMax);
    return EOVERLAP_AND_RESET;
  }
  if (count > 0) wmemcpy(dest, src, count);
  return EOK;
}

errno_t wmemmove_s(wchar_t* dest, size_t destMax, const wchar_t* src, size_t count) {
  const errno_t checked = WideCopyChecks(dest, destMax, src, count);
  if (checked != EOK) return checked;
  if (count > 0) wmemmove(dest, src, count);
  return EOK;
}

/* Copies at most `count` wide characters of src to dest and terminates it. */
static errno_t WideCopyString(wchar_t* dest, size_t destMax, const wchar_t* src, size_t count) {
  if (BadWideSize(destMax, SECUREC_WCHAR_STRING_MAX_LEN)) return ERANGE;
  if (dest == NULL) return EINVAL;
  if (src == NULL) {
    dest[0] = L'\0';
    return EINVAL_AND_RESET;
  }
  const size_t length = wcsnlen(src, count < destMax ? count : destMax);
  if (length >= destMax) {
    dest[0] = L'\0';
    return ERANGE_AND_RESET;
  }
  if (WideOverlap(dest, length + 1, src, length + 1)) {
    dest[0] = L'\0';
    return EOVERLAP_AND_RESET;
  }
  wmemcpy(dest, src, length);
  dest[length] = L'\0';
  return EOK;
}

errno_t wcscpy_s(wchar_t* strDest, size_t destMax, const wchar_t* strSrc) {
  return WideCopyString(strDest, destMax, strSrc, SIZE_MAX);
}

errno_t wcsncpy_s(wchar_t* strDest, size_t destMax, const wchar_t* strSrc, size_t count) {
  if (count > SECUREC_WCHAR_STRING_MAX_LEN) {
    if (strDest != NULL && !BadWideSize(destMax, SECUREC_WCHAR_STRING_MAX_LEN)) strDest[0] = L'\0';
    return ERANGE_AND_RESET;
  }
  return WideCopyString(strDest, destMax, strSrc, count);
}

static errno_t WideAppend(wchar_t* dest, size_t destMax, const wchar_t* src, size_t count) {
  if (BadWideSize(destMax, SECUREC_WCHAR_STRING_MAX_LEN)) return ERANGE;
  if (dest == NULL) return EINVAL;
  const size_t used = wcsnlen(dest, destMax);
  if (used == destMax) { /* dest is not even terminated */
    dest[0] = L'\0';
    return EINVAL_AND_RESET;
  }
  const errno_t copied = WideCopyString(dest + used, destMax - used, src, count);
  if (copied != EOK) dest[0] = L'\0';
  return copied;
}

errno_t wcscat_s(wchar_t* strDest, size_t destMax, const wchar_t* strSrc) {
  return WideAppend(strDest, destMax, strSrc, SIZE_MAX);
}

errno_t wcsncat_s(wchar_t* strDest, size_t destMax, const wchar_t* strSrc, size_t count) {
  return WideAppend(strDest, destMax, strSrc, count);
}

wchar_t* wcstok_s(wchar_t* strToken, const wchar_t* strDelimit, wchar_t** context) {
  if (context == NULL || strDelimit == NULL) return NULL;
  if (strToken == NULL && *context == NULL) return NULL;
  return wcstok(strToken, strDelimit, context);
}

int vswprintf_s(wchar_t* strDest, size_t destMax, const wchar_t* format, va_list argList) {
  if (strDest == NULL || BadWideSize(destMax, SECUREC_WCHAR_STRING_MAX_LEN)) return -1;
  if (format == NULL) {
    strDest[0] = L'\0';
    return -1;
  }
  va_list copy;
  va_copy(copy, argList);
  /* vswprintf fails (-1) when the result does not fit. */
  const int written = vswprintf(strDest, destMax, format, copy);
  va_end(copy);
  if (written < 0) {
    strDest[0] = L'\0';
    return -1;
  }
  return written;
}

int swprintf_s(wchar_t* strDest, size_t destMax, const wchar_t* format, ...) {
  va_list args;
  va_start(args, format);
  const int written = vswprintf_s(strDest, destMax, format, args);
  va_end(args);
  return written;
}
