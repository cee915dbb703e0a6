/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json.h - osn's streaming JSON calls, on json-c (writes to a FILE *).
 * The outermost object or array is printed when it is closed; strings are
 * escaped by json-c (UTF-8 kept as is, control characters as \uXXXX).
 */
#ifndef OSN_JSON_H
#define OSN_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define OSN_JSON_DEPTH	16

/*
 * The "schema" of every JSON document osn writes: raised when a key
 * changes its meaning or goes away (new keys keep it), so that a reader
 * such as osn compare can refuse a document it would misread.
 */
#define OSN_JSON_SCHEMA	1

struct json_object;

struct osn_json {
	FILE *f;
	int depth;
	struct json_object *open[OSN_JSON_DEPTH];	/* open containers */
	int too_deep;		/* containers opened beyond OSN_JSON_DEPTH */
	const char *key;	/* the key of the next value (not copied) */
	bool pretty;
};

void osn_json_init(struct osn_json *j, FILE *f, bool pretty);
void osn_json_obj_begin(struct osn_json *j);
void osn_json_obj_end(struct osn_json *j);
void osn_json_arr_begin(struct osn_json *j);
void osn_json_arr_end(struct osn_json *j);
void osn_json_key(struct osn_json *j, const char *key);
void osn_json_str(struct osn_json *j, const char *s);
void osn_json_u64(struct osn_json *j, uint64_t v);
void osn_json_i64(struct osn_json *j, int64_t v);
void osn_json_bool(struct osn_json *j, bool v);
void osn_json_null(struct osn_json *j);
/* ns as microseconds with 3 decimals (exact). */
void osn_json_us(struct osn_json *j, uint64_t ns);
/* @v printed as @text (a JSON number osn formatted itself). */
void osn_json_num(struct osn_json *j, double v, const char *text);
/* A fixed-point number: v / 10^decimals. */
void osn_json_fixed(struct osn_json *j, uint64_t v, int decimals);

/* key + value shorthands */
void osn_json_kstr(struct osn_json *j, const char *k, const char *s);
void osn_json_ku64(struct osn_json *j, const char *k, uint64_t v);
void osn_json_kus(struct osn_json *j, const char *k, uint64_t ns);
void osn_json_kbool(struct osn_json *j, const char *k, bool v);

#endif
