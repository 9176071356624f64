/*
 * models_h5 — the campaign's /models/callpaths table, read with the store's table layer. See
 * models_h5.h.
 */
#include "report/models_h5.h"

#include <stdlib.h>
#include <string.h>

#include "store/h5.h"
#include "util/xalloc.h"

static const struct h5_field model_fields[] = {
	FIELD(struct campaign_model, callpath, F_STR), FIELD(struct campaign_model, metric, F_STR),
	FIELD(struct campaign_model, status, F_STR), FIELD(struct campaign_model, model, F_STR),
	FIELD(struct campaign_model, growth, F_STR), FIELD(struct campaign_model, note, F_STR),
	FIELD(struct campaign_model, target, F_STR), FIELD(struct campaign_model, points, F_U32),
	FIELD(struct campaign_model, ar2, F_F64), FIELD(struct campaign_model, smape, F_F64),
	FIELD(struct campaign_model, rss, F_F64), FIELD(struct campaign_model, cv_error, F_F64),
	FIELD(struct campaign_model, prediction, F_F64), FIELD(struct campaign_model, lower, F_F64),
	FIELD(struct campaign_model, upper, F_F64), FIELD(struct campaign_model, level, F_F64),
	FIELD(struct campaign_model, wait_state, F_U8),
};
static const struct h5_table model_table = {"models", sizeof(struct campaign_model), model_fields,
					    sizeof model_fields / sizeof model_fields[0]};

bool models_read(const char *campaign, struct campaign_model **models, size_t *n, char **settings,
		 struct h5_err *e)
{
	*models = NULL;
	*n = 0;
	*settings = xstrdup("");
	hid_t f = h5_open(campaign, false, e);
	if (f < 0)
		return false;
	bool ok = true;
	if (h5_exists(f, "/models")) {
		hid_t g = H5Gopen2(f, "/models", H5P_DEFAULT);
		char *s = g >= 0 ? h5_get_attr_str(g, "settings") : NULL;
		if (s) {
			free(*settings);
			*settings = s;
		}
		if (g >= 0)
			H5Gclose(g);
	}
	if (h5_exists(f, "/models/callpaths")) {
		*models = h5_read_table(f, "/models/callpaths", &model_table, n, campaign, e);
		ok = *models != NULL || *n == 0;
	}
	H5Fclose(f);
	return ok;
}

void models_free(struct campaign_model *models, size_t n)
{
	if (models)
		h5_free_table(&model_table, models, n);
}

char *settings_value(const char *settings, const char *key)
{
	size_t klen = strlen(key);
	for (const char *p = settings; p && *p;) {
		const char *end = strchr(p, ';');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len > klen && !strncmp(p, key, klen) && p[klen] == '=')
			return xasprintf("%.*s", (int)(len - klen - 1), p + klen + 1);
		p = end ? end + 1 : NULL;
	}
	return NULL;
}
