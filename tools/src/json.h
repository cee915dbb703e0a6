/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json.h - a tiny streaming JSON writer (pure: writes to a FILE *).
 * Nesting and commas are tracked; strings are escaped.
 */
#ifndef OSN_JSON_H
#define OSN_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define OSN_JSON_DEPTH	16

struct osn_json {
	FILE *f;
	int depth;
	bool first[OSN_JSON_DEPTH];
	bool after_key;
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
/* A fixed-point number: v / 10^decimals. */
void osn_json_fixed(struct osn_json *j, uint64_t v, int decimals);

/* key + value shorthands */
void osn_json_kstr(struct osn_json *j, const char *k, const char *s);
void osn_json_ku64(struct osn_json *j, const char *k, uint64_t v);
void osn_json_kus(struct osn_json *j, const char *k, uint64_t ns);
void osn_json_kbool(struct osn_json *j, const char *k, bool v);

/*
 * Minimal validator (used by the unit tests and as a self-check): true if
 * @s is one complete JSON value with nothing but whitespace after it.
 */
bool osn_json_valid(const char *s);

#endif
