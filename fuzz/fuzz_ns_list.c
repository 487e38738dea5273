// SPDX-License-Identifier: MIT
/* st_layer_parse() on any --ns=LIST value. */
#include "sandboxtime/layer.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *list = fuzz_strndup(data, size);
	unsigned int mask = 0, explicit_mask = 0;
	struct st_error err = { 0 };

	if (st_layer_parse(list, &mask, &explicit_mask, &err) < 0) {
		fuzz_check_error(&err);
	} else if ((mask & ~ST_LAYERS_ALL) || (explicit_mask & ~mask)) {
		abort(); /* only known layers, and every named one is asked for */
	}
	free(list);
	return 0;
}
