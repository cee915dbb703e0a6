// SPDX-License-Identifier: GPL-2.0
/*
 * json.c - osn's streaming JSON calls on top of json-c (see json.h).
 *
 * The calls build a json-c tree; closing the outermost object or array
 * prints it with json_object_to_json_string_ext() and frees it.  json-c
 * escapes only what JSON requires ('"', '\\' and control characters), so a
 * UTF-8 task name comes out as the same bytes.
 */
#include <string.h>

/* <json.h> would be ours (-I tools/src): name json-c's by its directory */
#include <json-c/json.h>

#include "json.h"

/* Pretty: two spaces of indentation and "key": value, as osn always had. */
#define PRETTY_FLAGS	(JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | \
			 JSON_C_TO_STRING_NOSLASHESCAPE)
#define PLAIN_FLAGS	(JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

void osn_json_init(struct osn_json *j, FILE *f, bool pretty)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->pretty = pretty;
}

static void print(struct osn_json *j, struct json_object *v)
{
	fputs(json_object_to_json_string_ext(v, j->pretty ? PRETTY_FLAGS :
					     PLAIN_FLAGS), j->f);
	if (j->pretty)
		fputc('\n', j->f);
}

/*
 * Put @v (NULL is JSON's null) where the document is: under the pending
 * key, at the end of the open array, or printed if nothing is open.
 * Takes the reference.
 */
static void put(struct osn_json *j, struct json_object *v)
{
	struct json_object *parent = j->depth ? j->open[j->depth - 1] : NULL;

	if (!parent) {
		print(j, v);
		json_object_put(v);
	} else if (json_object_is_type(parent, json_type_object)) {
		/* json-c copies the key */
		json_object_object_add(parent, j->key ? j->key : "", v);
	} else {
		json_object_array_add(parent, v);
	}
	j->key = NULL;
}

static void open(struct osn_json *j, struct json_object *v)
{
	if (j->depth == OSN_JSON_DEPTH) {
		/* deeper than any osn document: left empty, still valid */
		put(j, v);
		j->too_deep++;
		return;
	}
	if (j->depth)
		put(j, json_object_get(v));
	j->open[j->depth++] = v;
	j->key = NULL;
}

static void close_(struct osn_json *j)
{
	struct json_object *v;

	if (j->too_deep) {
		j->too_deep--;
		return;
	}
	if (!j->depth)
		return;
	v = j->open[--j->depth];
	if (!j->depth)
		print(j, v);
	json_object_put(v);
}

void osn_json_obj_begin(struct osn_json *j)
{
	open(j, json_object_new_object());
}

void osn_json_obj_end(struct osn_json *j)
{
	close_(j);
}

void osn_json_arr_begin(struct osn_json *j)
{
	open(j, json_object_new_array());
}

void osn_json_arr_end(struct osn_json *j)
{
	close_(j);
}

void osn_json_key(struct osn_json *j, const char *key)
{
	j->key = key;
}

void osn_json_str(struct osn_json *j, const char *s)
{
	put(j, json_object_new_string(s ? s : ""));
}

void osn_json_u64(struct osn_json *j, uint64_t v)
{
	put(j, json_object_new_uint64(v));
}

void osn_json_i64(struct osn_json *j, int64_t v)
{
	put(j, json_object_new_int64(v));
}

void osn_json_bool(struct osn_json *j, bool v)
{
	put(j, json_object_new_boolean(v));
}

void osn_json_null(struct osn_json *j)
{
	put(j, NULL);
}

void osn_json_num(struct osn_json *j, double v, const char *text)
{
	put(j, json_object_new_double_s(v, text));
}

/*
 * Exact decimals: json-c would print a double with %.17g; a double
 * created with json_object_new_double_s() is printed as the given text.
 */
void osn_json_fixed(struct osn_json *j, uint64_t v, int decimals)
{
	uint64_t div = 1;
	char text[48];

	for (int i = 0; i < decimals; i++)
		div *= 10;
	if (!decimals)
		snprintf(text, sizeof(text), "%llu", (unsigned long long)v);
	else
		snprintf(text, sizeof(text), "%llu.%0*llu",
			 (unsigned long long)(v / div), decimals,
			 (unsigned long long)(v % div));
	osn_json_num(j, (double)v / (double)div, text);
}

void osn_json_us(struct osn_json *j, uint64_t ns)
{
	osn_json_fixed(j, ns, 3);
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
