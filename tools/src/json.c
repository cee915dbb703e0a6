// SPDX-License-Identifier: GPL-2.0
/*
 * json.c - tiny JSON writer and validator (see json.h).
 */
#include <ctype.h>
#include <string.h>

#include "json.h"

void osn_json_init(struct osn_json *j, FILE *f, bool pretty)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->pretty = pretty;
	j->first[0] = true;
}

static void indent(struct osn_json *j)
{
	if (!j->pretty)
		return;
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* Before any value: a comma and indentation, unless right after a key. */
static void pre_value(struct osn_json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = false;
	if (j->depth)
		indent(j);
}

static void open(struct osn_json *j, char c)
{
	pre_value(j);
	fputc(c, j->f);
	if (j->depth < OSN_JSON_DEPTH - 1)
		j->depth++;
	j->first[j->depth] = true;
}

static void close_(struct osn_json *j, char c)
{
	bool empty = j->first[j->depth];

	if (j->depth)
		j->depth--;
	if (!empty)
		indent(j);
	fputc(c, j->f);
	if (!j->depth && j->pretty)
		fputc('\n', j->f);
}

void osn_json_obj_begin(struct osn_json *j)
{
	open(j, '{');
}

void osn_json_obj_end(struct osn_json *j)
{
	close_(j, '}');
}

void osn_json_arr_begin(struct osn_json *j)
{
	open(j, '[');
}

void osn_json_arr_end(struct osn_json *j)
{
	close_(j, ']');
}

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		default:
			if (c < 0x20 || c >= 0x7f)
				fprintf(f, "\\u%04x", c);
			else
				fputc(c, f);
		}
	}
	fputc('"', f);
}

void osn_json_key(struct osn_json *j, const char *key)
{
	pre_value(j);
	put_string(j->f, key);
	fputs(j->pretty ? ": " : ":", j->f);
	j->after_key = true;
}

void osn_json_str(struct osn_json *j, const char *s)
{
	pre_value(j);
	put_string(j->f, s);
}

void osn_json_u64(struct osn_json *j, uint64_t v)
{
	pre_value(j);
	fprintf(j->f, "%llu", (unsigned long long)v);
}

void osn_json_i64(struct osn_json *j, int64_t v)
{
	pre_value(j);
	fprintf(j->f, "%lld", (long long)v);
}

void osn_json_bool(struct osn_json *j, bool v)
{
	pre_value(j);
	fputs(v ? "true" : "false", j->f);
}

void osn_json_null(struct osn_json *j)
{
	pre_value(j);
	fputs("null", j->f);
}

void osn_json_fixed(struct osn_json *j, uint64_t v, int decimals)
{
	uint64_t div = 1;

	for (int i = 0; i < decimals; i++)
		div *= 10;
	pre_value(j);
	if (!decimals)
		fprintf(j->f, "%llu", (unsigned long long)v);
	else
		fprintf(j->f, "%llu.%0*llu", (unsigned long long)(v / div),
			decimals, (unsigned long long)(v % div));
}

void osn_json_us(struct osn_json *j, uint64_t ns)
{
#ifdef OSN_MUTANT_JSON_UNITS
	/* mutant (make check-mutants): ns printed where us are promised */
	osn_json_fixed(j, ns * 1000, 3);
#else
	osn_json_fixed(j, ns, 3);
#endif
}

void osn_json_kstr(struct osn_json *j, const char *k, const char *s)
{
	osn_json_key(j, k);
	osn_json_str(j, s);
}

void osn_json_ku64(struct osn_json *j, const char *k, uint64_t v)
{
	osn_json_key(j, k);
	osn_json_u64(j, v);
}

void osn_json_kus(struct osn_json *j, const char *k, uint64_t ns)
{
	osn_json_key(j, k);
	osn_json_us(j, ns);
}

void osn_json_kbool(struct osn_json *j, const char *k, bool v)
{
	osn_json_key(j, k);
	osn_json_bool(j, v);
}

/* ---- validator ------------------------------------------------------------ */

static const char *ws(const char *p)
{
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

static const char *value(const char *p, int depth);

static const char *string(const char *p)
{
	if (*p != '"')
		return NULL;
	for (p++; *p && *p != '"'; p++) {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!isxdigit((unsigned char)p[i]))
						return NULL;
				p += 4;
			} else if (!strchr("\"\\/bfnrt", *p) || !*p) {
				return NULL;
			}
		}
	}
	return *p == '"' ? p + 1 : NULL;
}

static const char *number(const char *p)
{
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (isdigit((unsigned char)*p))
		while (isdigit((unsigned char)*p))
			p++;
	else
		return NULL;
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return NULL;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!isdigit((unsigned char)*p))
			return NULL;
		while (isdigit((unsigned char)*p))
			p++;
	}
	return p;
}

static const char *value(const char *p, int depth)
{
	if (depth > 64)
		return NULL;
	p = ws(p);
	switch (*p) {
	case '{':
		p = ws(p + 1);
		if (*p == '}')
			return p + 1;
		for (;;) {
			p = string(ws(p));
			if (!p)
				return NULL;
			p = ws(p);
			if (*p != ':')
				return NULL;
			p = value(p + 1, depth + 1);
			if (!p)
				return NULL;
			p = ws(p);
			if (*p == '}')
				return p + 1;
			if (*p != ',')
				return NULL;
			p++;
		}
	case '[':
		p = ws(p + 1);
		if (*p == ']')
			return p + 1;
		for (;;) {
			p = value(p, depth + 1);
			if (!p)
				return NULL;
			p = ws(p);
			if (*p == ']')
				return p + 1;
			if (*p != ',')
				return NULL;
			p++;
		}
	case '"':
		return string(p);
	case 't':
		return strncmp(p, "true", 4) ? NULL : p + 4;
	case 'f':
		return strncmp(p, "false", 5) ? NULL : p + 5;
	case 'n':
		return strncmp(p, "null", 4) ? NULL : p + 4;
	default:
		return number(p);
	}
}

bool osn_json_valid(const char *s)
{
	const char *p = value(s, 0);

	return p && !*ws(p);
}
