/* Low-level SVG writing: escaped text and locale-free numbers. */
#include "plot/svg.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

/* U+2212 MINUS SIGN as a character reference: right in any page encoding. */
#define TYPOGRAPHIC_MINUS "&#8722;"

void ga_svg_init(struct ga_svg *w, FILE *out)
{
    w->out = out;
    w->failed = 0;
}

int ga_svg_status(const struct ga_svg *w)
{
    return (w->failed || w->out == NULL || ferror(w->out)) ? -1 : 0;
}

static void put_bytes(struct ga_svg *w, const char *s, size_t n)
{
    if (w->failed || n == 0)
        return;
    if (w->out == NULL || fwrite(s, 1, n, w->out) != n)
        w->failed = 1;
}

static void put_string(struct ga_svg *w, const char *s)
{
    put_bytes(w, s, strlen(s));
}

/* Length of the valid UTF-8 sequence starting at s (1 to 4), or 0 when it
 * is not valid: overlong forms, surrogates and code points above U+10FFFF
 * are rejected (RFC 3629, section 4). */
static size_t utf8_sequence(const unsigned char *s)
{
    unsigned c = s[0];
    size_t n;
    unsigned cp;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
        cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10ffff
        || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    /* U+FFFE and U+FFFF are not XML characters either. */
    if (cp == 0xfffe || cp == 0xffff)
        return 0;
    return n;
}

/* The replacement for one byte of src, or NULL when it is copied as is. */
static const char *escape_of(unsigned char c)
{
    switch (c) {
    case '&': return "&amp;";
    case '<': return "&lt;";
    case '>': return "&gt;";
    case '"': return "&quot;";
    case '\'': return "&#39;";
    case '\t': case '\n': case '\r': return NULL;
    default: return c < 0x20 || c == 0x7f ? "?" : NULL;
    }
}

size_t ga_svg_escape(char *dst, size_t size, const char *src)
{
    const unsigned char *s = (const unsigned char *)src;
    size_t need = 0;
    while (*s) {
        const char *piece;
        size_t len;
        size_t seq = utf8_sequence(s);
        if (seq == 0) {
            piece = "?";
            len = 1;
            seq = 1;
        } else if (seq == 1 && (piece = escape_of(*s)) != NULL) {
            len = strlen(piece);
        } else {
            piece = (const char *)s;
            len = seq;
        }
        for (size_t i = 0; i < len; i++, need++)
            if (need + 1 < size)
                dst[need] = piece[i];
        s += seq;
    }
    if (size > 0)
        dst[need < size ? need : size - 1] = '\0';
    return need;
}

static void put_escaped(struct ga_svg *w, const char *text)
{
    char buf[256];
    if (text == NULL)
        return;
    /* Escape in chunks that end on a character boundary: a UTF-8 sequence
     * is never split, so each chunk escapes exactly as the whole would. */
    const unsigned char *s = (const unsigned char *)text;
    while (*s) {
        char chunk[64];
        size_t n = 0;
        while (s[n] && n < sizeof chunk - 5) {
            size_t seq = utf8_sequence(s + n);
            n += seq ? seq : 1;
        }
        memcpy(chunk, s, n);
        chunk[n] = '\0';
        /* Each byte escapes to at most 6 bytes: 63 * 6 < 256. */
        size_t len = ga_svg_escape(buf, sizeof buf, chunk);
        put_bytes(w, buf, len);
        s += n;
    }
}

long ga_svg_tenths(double px)
{
    const double limit = 1e9;
    if (isnan(px))
        return 0;
    double t = px * 10.0;
    if (t > limit)
        t = limit;
    if (t < -limit)
        t = -limit;
    return lround(t);
}

int ga_svg_format_tenths(char *buf, long v)
{
    unsigned long a = v < 0 ? 0ul - (unsigned long)v : (unsigned long)v;
    char tmp[24];
    int n = 0;
    if (a % 10 != 0) {
        tmp[n++] = (char)('0' + a % 10);
        tmp[n++] = '.';
    }
    a /= 10;
    do {
        tmp[n++] = (char)('0' + a % 10);
        a /= 10;
    } while (a > 0);
    int len = 0;
    if (v < 0)
        buf[len++] = '-';
    while (n > 0)
        buf[len++] = tmp[--n];
    buf[len] = '\0';
    return len;
}

int ga_svg_format_decimal(char *buf, long long digits, int exponent,
                          int plain_min, int plain_max, int typographic)
{
    char d[24];
    int len = 0;
    unsigned long long a = digits < 0 ? 0ull - (unsigned long long)digits
                                      : (unsigned long long)digits;
    if (a == 0) {
        strcpy(buf, "0");
        return 1;
    }
    while (a % 10 == 0) {
        a /= 10;
        exponent++;
    }
    int n = 0;
    char rev[24];
    while (a > 0) {
        rev[n++] = (char)('0' + a % 10);
        a /= 10;
    }
    for (int i = 0; i < n; i++)
        d[i] = rev[n - 1 - i];
    d[n] = '\0';

    if (digits < 0) {
        const char *minus = typographic ? TYPOGRAPHIC_MINUS : "-";
        strcpy(buf, minus);
        len = (int)strlen(minus);
    }
    int power = exponent + n - 1;   /* the power of ten of the leading digit */
    if (power >= plain_min && power <= plain_max) {
        if (exponent >= 0) {
            memcpy(buf + len, d, (size_t)n);
            len += n;
            for (int i = 0; i < exponent; i++)
                buf[len++] = '0';
        } else if (power >= 0) {
            memcpy(buf + len, d, (size_t)(power + 1));
            len += power + 1;
            buf[len++] = '.';
            memcpy(buf + len, d + power + 1, (size_t)(n - power - 1));
            len += n - power - 1;
        } else {
            buf[len++] = '0';
            buf[len++] = '.';
            for (int i = 0; i < -power - 1; i++)
                buf[len++] = '0';
            memcpy(buf + len, d, (size_t)n);
            len += n;
        }
    } else {
        buf[len++] = d[0];
        if (n > 1) {
            buf[len++] = '.';
            memcpy(buf + len, d + 1, (size_t)(n - 1));
            len += n - 1;
        }
        buf[len++] = 'e';
        if (power < 0) {
            const char *minus = typographic ? TYPOGRAPHIC_MINUS : "-";
            strcpy(buf + len, minus);
            len += (int)strlen(minus);
        }
        int p = power < 0 ? -power : power;
        char e[8];
        int k = 0;
        do {
            e[k++] = (char)('0' + p % 10);
            p /= 10;
        } while (p > 0);
        while (k > 0)
            buf[len++] = e[--k];
    }
    buf[len] = '\0';
    return len;
}

static void put_int(struct ga_svg *w, long v)
{
    char buf[24];
    /* Integers only: %ld has no locale-dependent part. */
    int n = snprintf(buf, sizeof buf, "%ld", v);
    put_bytes(w, buf, (size_t)n);
}

void ga_svg_put(struct ga_svg *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const char *run = fmt;
    for (const char *p = fmt; *p; p++) {
        if (*p != '%')
            continue;
        put_bytes(w, run, (size_t)(p - run));
        char buf[24];
        switch (*++p) {
        case 's': put_string(w, va_arg(ap, const char *)); break;
        case 'x': put_escaped(w, va_arg(ap, const char *)); break;
        case 'd': put_int(w, va_arg(ap, int)); break;
        case 'p':
            put_bytes(w, buf, (size_t)ga_svg_format_tenths(buf, ga_svg_tenths(va_arg(ap, double))));
            break;
        case 't':
            put_bytes(w, buf, (size_t)ga_svg_format_tenths(buf, va_arg(ap, long)));
            break;
        case '%': put_bytes(w, "%", 1); break;
        case '\0': p--; put_bytes(w, "?", 1); break;
        default: put_bytes(w, "?", 1); break;
        }
        run = p + 1;
    }
    put_string(w, run);
    va_end(ap);
}
