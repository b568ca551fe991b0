/*
 * The scanf family of libc_sec.so: scanf_s, sscanf_s, fscanf_s and their
 * va_list and wide forms, from one engine (securec_scan.inc) compiled for
 * char and for wchar_t. The wide forms convert as the C library's swscanf
 * does: %ls, %lc and %l[ for wide buffers.
 */
#include <wctype.h>

#include "securec.h"

#include <ctype.h>

/* The longest directive the engine builds: a conversion with its modifier
   and scan set. A longer scan set is refused (-1). */
#define SEC_SCAN_SPEC_MAX 256

/* ---- char ---- */
#define SEC_CHAR char
#define SEC_LIT(x) x
#define SEC_STRSCAN sscanf
#define SEC_FILESCAN fscanf
#define SEC_NAME(x) Narrow##x

static int NarrowIsSpace(char c) { return isspace((unsigned char)c); }

/* The next character of `stream` into next[0] (0 at its end), left unread. */
static void NarrowPeek(FILE* stream, char* next) {
  const int c = fgetc(stream);
  if (c == EOF) return;
  next[0] = (char)c;
  ungetc(c, stream);
}

#include "securec_scan.inc"

#undef SEC_CHAR
#undef SEC_LIT
#undef SEC_STRSCAN
#undef SEC_FILESCAN
#undef SEC_NAME

/* ---- wchar_t ---- */
#define SEC_CHAR wchar_t
#define SEC_LIT(x) L##x
#define SEC_STRSCAN swscanf
#define SEC_FILESCAN fwscanf
#define SEC_NAME(x) Wide##x

static int WideIsSpace(wchar_t c) { return iswspace((wint_t)c); }

static void WidePeek(FILE* stream, wchar_t* next) {
  const wint_t c = fgetwc(stream);
  if (c == WEOF) return;
  next[0] = (wchar_t)c;
  ungetwc(c, stream);
}

#include "securec_scan.inc"

/* ---- the entry points ---- */

int vsscanf_s(const char* buffer, const char* format, va_list argList) {
  if (buffer == NULL || format == NULL) return -1;
  NarrowInput in = {buffer, 0, NULL, 0};
  return NarrowScan(&in, format, argList);
}

int vfscanf_s(FILE* stream, const char* format, va_list argList) {
  if (stream == NULL || format == NULL) return -1;
  NarrowInput in = {NULL, 0, stream, 0};
  return NarrowScan(&in, format, argList);
}

int vscanf_s(const char* format, va_list argList) { return vfscanf_s(stdin, format, argList); }

int sscanf_s(const char* buffer, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int ret = vsscanf_s(buffer, format, args);
  va_end(args);
  return ret;
}

int fscanf_s(FILE* stream, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int ret = vfscanf_s(stream, format, args);
  va_end(args);
  return ret;
}

int scanf_s(const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int ret = vfscanf_s(stdin, format, args);
  va_end(args);
  return ret;
}

int vswscanf_s(const wchar_t* buffer, const wchar_t* format, va_list argList) {
  if (buffer == NULL || format == NULL) return -1;
  WideInput in = {buffer, 0, NULL, 0};
  return WideScan(&in, format, argList);
}

int vfwscanf_s(FILE* stream, const wchar_t* format, va_list argList) {
  if (stream == NULL || format == NULL) return -1;
  WideInput in = {NULL, 0, stream, 0};
  return WideScan(&in, format, argList);
}

int vwscanf_s(const wchar_t* format, va_list argList) { return vfwscanf_s(stdin, format, argList); }

int swscanf_s(const wchar_t* buffer, const wchar_t* format, ...) {
  va_list args;
  va_start(args, format);
  const int ret = vswscanf_s(buffer, format, args);
  va_end(args);
  return ret;
}

int fwscanf_s(FILE* stream, const wchar_t* format, ...) {
  va_list args;
  va_start(args, format);
  const int ret = vfwscanf_s(stream, format, args);
  va_end(args);
  return ret;
}

int wscanf_s(const wchar_t* format, ...) {
  va_list args;
  va_start(args, format);
  const int ret = vfwscanf_s(stdin, format, args);
  va_end(args);
  return ret;
}
