/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json_parse.h - the unit tests parse osn's JSON back with json-c's
 * json_tokener, in strict mode: one complete value, nothing after it but
 * whitespace.  (json-c 0.16 accepts a raw control character inside a
 * string: test_json checks osn never writes one.)
 */
#ifndef OSN_JSON_PARSE_H
#define OSN_JSON_PARSE_H

#include <ctype.h>
#include <string.h>

#include <json-c/json.h>

/* The value of @s, or NULL if @s is not exactly one JSON value (json_object_put() it). */
static inline struct json_object *h_json_parse(const char *s)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *v;
	size_t len = strlen(s);
	size_t end;

	if (!tok)
		return NULL;
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	/* with its '\0': a number at the very end is complete, not cut */
	v = json_tokener_parse_ex(tok, s, (int)len + 1);
	end = json_tokener_get_parse_end(tok);
	/* a complete value: not waiting for more, only whitespace after it */
	if (json_tokener_get_error(tok) != json_tokener_success) {
		json_object_put(v);
		v = NULL;
	}
	for (; v && end < len; end++) {
		if (!isspace((unsigned char)s[end])) {
			json_object_put(v);
			v = NULL;
		}
	}
	json_tokener_free(tok);
	return v;
}

static inline int h_json_valid(const char *s)
{
	struct json_object *v = h_json_parse(s);
	/* a document that is JSON's null parses to NULL too: none of osn's */
	int ok = v != NULL;

	json_object_put(v);
	return ok;
}

#endif
