/* Small helpers shared by the subcommands: options, version, stdin. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "version.h"

int cmd_is_help(const char *s)
{
    return strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0;
}

int cmd_version(void)
{
    printf("tablesight %s\n", TS_VERSION);
    return 0;
}

int cmd_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "tablesight%s%s: ", cmd ? " " : "", cmd ? cmd : "");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, " (see --help)\n");
    va_end(ap);
    return 2;
}

int cmd_whole(const char *cmd, const char *opt, const char *v, long long lo, long long hi,
              long long *out)
{
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (errno || end == v || *end || x < lo || x > hi) {
        cmd_usage_error(cmd, "%s takes a whole number %lld..%lld, not '%s'", opt, lo, hi, v);
        return -1;
    }
    *out = x;
    return 0;
}

int cmd_whole_int(const char *cmd, const char *opt, const char *v, int lo, int hi, int *out)
{
    long long x;
    if (cmd_whole(cmd, opt, v, lo, hi, &x) < 0)
        return -1;
    *out = (int)x;
    return 0;
}

int cmd_dispatch(const char *cmd, const cmd_entry *t, size_t n, int argc, char **argv,
                 void (*usage)(FILE *))
{
    /* Options before the name only ("+": stop at the first operand); the
     * subcommand parses its own. */
    static const struct option OPTS[] = {CMD_COMMON_OPTIONS, {0}};
    opterr = 0;
    for (int c; (c = getopt_long(argc, argv, "+:h", OPTS, NULL)) != -1;) {
        if (c == 'h') {
            usage(stdout);
            return 0;
        }
        if (c == CMD_OPT_VERSION)
            return cmd_version();
        return cmd_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
    }
    if (optind >= argc) {
        usage(stderr);
        return 2;
    }
    const char *name = argv[optind];
    for (size_t i = 0; i < n; i++)
        if (strcmp(name, t[i].name) == 0) {
            int sub_argc = argc - optind;
            char **sub_argv = argv + optind;
            optind = 0; /* the subcommand parses its own options afresh */
            return t[i].fn(sub_argc, sub_argv);
        }
    return cmd_usage_error(cmd, "unknown %s '%s'", cmd ? "game" : "command", name);
}

/* How many long names start with the name in arg ("--na" of "--name=v"). */
static int prefix_matches(const struct option *opts, const char *arg)
{
    size_t n = strcspn(arg + 2, "=");
    int k = 0;
    for (const struct option *o = opts; o->name; o++)
        if (strncmp(o->name, arg + 2, n) == 0) {
            if (strlen(o->name) == n)
                return 1; /* exact */
            k++;
        }
    return k;
}

int cmd_getopt(const char *cmd, int argc, char **argv, const struct option *opts)
{
    opterr = 0; /* our own one-line messages */
    int c = getopt_long(argc, argv, ":h", opts, NULL);
    if (c != '?' && c != ':')
        return c;
    /* The offending word: the one getopt just stepped over. */
    const char *arg = optind > 0 && optind - 1 < argc ? argv[optind - 1] : "";
    int is_long = strncmp(arg, "--", 2) == 0;
    int name_len = is_long ? (int)strcspn(arg, "=") : 2;
    if (!is_long && optopt)
        return cmd_usage_error(cmd, "unknown option '-%c'", optopt), '?';
    if (c == ':')
        cmd_usage_error(cmd, "option '%.*s' needs a value", name_len, arg);
    else if (is_long && optopt && strchr(arg, '='))
        cmd_usage_error(cmd, "option '%.*s' takes no value", name_len, arg);
    else if (is_long && prefix_matches(opts, arg) > 1)
        cmd_usage_error(cmd, "option '%.*s' is ambiguous", name_len, arg);
    else
        cmd_usage_error(cmd, "unknown option '%.*s'", name_len, arg);
    return '?';
}

int cmd_read_stdin(size_t max, uint8_t **data, size_t *len, char *err, size_t errlen)
{
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap + 1);
    for (;;) {
        if (!buf) {
            snprintf(err, errlen, "-: out of memory");
            return -1;
        }
        if (n == cap) {
            if (cap >= max) {
                free(buf);
                snprintf(err, errlen, "-: standard input is larger than %zu MB", max >> 20);
                return -1;
            }
            cap = cap * 2 > max ? max : cap * 2;
            uint8_t *grown = realloc(buf, cap + 1);
            if (!grown)
                free(buf);
            buf = grown;
            continue;
        }
        ssize_t r = read(STDIN_FILENO, buf + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            snprintf(err, errlen, "-: cannot read standard input: %s", strerror(errno));
            free(buf);
            return -1;
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return 0;
}

const char *cmd_game_name(const char *asked, const ts_frame_result *r)
{
    if (asked && strcmp(asked, "auto") != 0)
        return asked;
    return r->family >= 0 ? ts_family_name((ts_family)r->family) : "none";
}
