/*
 * libc_sec.so: the bounds-checked functions of securec.h. Every failure
 * leaves the destination in a defined state (cleared, or untouched when it
 * cannot be trusted at all), so a caller that ignores the result reads no
 * stale or unterminated data.
 */
#include "securec.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int BadSize(size_t destMax, size_t limit) { return destMax == 0 || destMax > limit; }

static int Overlap(const void* a, size_t aLen, const void* b, size_t bLen) {
  const uintptr_t x = (uintptr_t)a;
  const uintptr_t y = (uintptr_t)b;
  return x < y + bLen && y < x + aLen;
}

errno_t memset_s(void* dest, size_t destMax, int c, size_t count) {
  if (BadSize(destMax, SECUREC_MEM_MAX_LEN)) return ERANGE;
  if (dest == NULL) return EINVAL;
  if (count > destMax) {
    memset(dest, c, destMax);
    return ERANGE_AND_RESET;
  }
  memset(dest, c, count);
  return EOK;
}

static errno_t CopyChecks(void* dest, size_t destMax, const void* src, size_t count) {
  if (BadSize(destMax, SECUREC_MEM_MAX_LEN)) return ERANGE;
  if (dest == NULL) return EINVAL;
  if (src == NULL) {
    memset(dest, 0, destMax);
    return EINVAL_AND_RESET;
  }
  if (count > destMax) {
    memset(dest, 0, destMax);
    return ERANGE_AND_RESET;
  }
  return EOK;
}

errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count) {
  const errno_t checked = CopyChecks(dest, destMax, src, count);
  if (checked != EOK) return checked;
  if (count > 0 && Overlap(dest, count, src, count)) {
    memset(dest, 0, destMax);
    return EOVERLAP_AND_RESET;
  }
  if (count > 0) memcpy(dest, src, count);
  return EOK;
}

errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count) {
  const errno_t checked = CopyChecks(dest, destMax, src, count);
  if (checked != EOK) return checked;
  if (count > 0) memmove(dest, src, count);
  return EOK;
}

/* Copies at most `count` characters of src to dest and terminates it. */
static errno_t CopyString(char* dest, size_t destMax, const char* src, size_t count) {
  if (BadSize(destMax, SECUREC_STRING_MAX_LEN)) return ERANGE;
  if (dest == NULL) return EINVAL;
  if (src == NULL) {
    dest[0] = '\0';
    return EINVAL_AND_RESET;
  }
  const size_t length = strnlen(src, count < destMax ? count : destMax);
  if (length >= destMax) {
    dest[0] = '\0';
    return ERANGE_AND_RESET;
  }
  if (Overlap(dest, length + 1, src, length + 1)) {
    dest[0] = '\0';
    return EOVERLAP_AND_RESET;
  }
  memcpy(dest, src, length);
  dest[length] = '\0';
  return EOK;
}

errno_t strcpy_s(char* strDest, size_t destMax, const char* strSrc) {
  return CopyString(strDest, destMax, strSrc, SIZE_MAX);
}

errno_t strncpy_s(char* strDest, size_t destMax, const char* strSrc, size_t count) {
  if (count > SECUREC_STRING_MAX_LEN) {
    if (strDest != NULL && !BadSize(destMax, SECUREC_STRING_MAX_LEN)) strDest[0] = '\0';
    return ERANGE_AND_RESET;
  }
  return CopyString(strDest, destMax, strSrc, count);
}

static errno_t AppendString(char* dest, size_t destMax, const char* src, size_t count) {
  if (BadSize(destMax, SECUREC_STRING_MAX_LEN)) return ERANGE;
  if (dest == NULL) return EINVAL;
  const size_t used = strnlen(dest, destMax);
  if (used == destMax) { /* dest is not even terminated */
    dest[0] = '\0';
    return EINVAL_AND_RESET;
  }
  const errno_t copied = CopyString(dest + used, destMax - used, src, count);
  if (copied != EOK) dest[0] = '\0';
  return copied;
}

errno_t strcat_s(char* strDest, size_t destMax, const char* strSrc) {
  return AppendString(strDest, destMax, strSrc, SIZE_MAX);
}

errno_t strncat_s(char* strDest, size_t destMax, const char* strSrc, size_t count) {
  return AppendString(strDest, destMax, strSrc, count);
}

int vsnprintf_s(char* strDest, size_t destMax, size_t count, const char* format, va_list argList) {
  if (strDest == NULL || BadSize(destMax, SECUREC_STRING_MAX_LEN)) return -1;
  if (format == NULL) {
    strDest[0] = '\0';
    return -1;
  }
  /* Room for at most `count` characters plus the terminator. */
  const size_t room = count < destMax ? count + 1 : destMax;
  va_list copy;
  va_copy(copy, argList);
  const int written = vsnprintf(strDest, room, format, copy);
  va_end(copy);
  if (written < 0) {
    strDest[0] = '\0';
    return -1;
  }
  if ((size_t)written >= room) {
    /* Cut short: the caller's count keeps what fits, a full destination
       keeps nothing. */
    if (count >= destMax) strDest[0] = '\0';
    return -1;
  }
  return written;
}

int vsprintf_s(char* strDest, size_t destMax, const char* format, va_list argList) {
  return vsnprintf_s(strDest, destMax, destMax, format, argList);
}

int sprintf_s(char* strDest, size_t destMax, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int written = vsprintf_s(strDest, destMax, format, args);
  va_end(args);
  return written;
}

int snprintf_s(char* strDest, size_t destMax, size_t count, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int written = vsnprintf_s(strDest, destMax, count, format, args);
  va_end(args);
  return written;
}

/* Like vsnprintf_s with count destMax - 1, except that a result that does
   not fit is kept, cut to destMax - 1 characters, and that length returned. */
int vsnprintf_truncated_s(char* strDest, size_t destMax, const char* format, va_list argList) {
  if (strDest == NULL || BadSize(destMax, SECUREC_STRING_MAX_LEN)) return -1;
  if (format == NULL) {
    strDest[0] = '\0';
    return -1;
  }
  va_list copy;
  va_copy(copy, argList);
  const int written = vsnprintf(strDest, destMax, format, copy);
  va_end(copy);
  if (written < 0) {
    strDest[0] = '\0';
    return -1;
  }
  return (size_t)written >= destMax ? (int)(destMax - 1) : written;
}

int snprintf_truncated_s(char* strDest, size_t destMax, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int written = vsnprintf_truncated_s(strDest, destMax, format, args);
  va_end(args);
  return written;
}

/* strtok_r's tokens; NULL for missing arguments, as for a string without
   further tokens. */
char* strtok_s(char* strToken, const char* strDelimit, char** context) {
  if (context == NULL || strDelimit == NULL) return NULL;
  if (strToken == NULL && *context == NULL) return NULL;
  return strtok_r(strToken, strDelimit, context);
}

char* gets_s(char* buffer, size_t destMax) {
  if (buffer == NULL || BadSize(destMax, SECUREC_STRING_MAX_LEN)) return NULL;
  if (fgets(buffer, (int)destMax, stdin) == NULL) {
    buffer[0] = '\0';
    return NULL;
  }
  const size_t length = strlen(buffer);
  if (length > 0 && buffer[length - 1] == '\n') buffer[length - 1] = '\0';
  return buffer;
}

/* npud's own version: its securec is not Huawei's library. */
const char* GetHwSecureCVersion(unsigned short* verNumber) {
  if (verNumber != NULL) *verNumber = 0x0100;
  return "npud libc_sec 1.0 (CANN securec interface)";
}
