#include "CIndexStore.h"

#include <dlfcn.h>
#include <stdio.h>

bool fbis_load(const char *path, fbis_library *library, char *error, size_t error_size) {
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(error, error_size, "cannot open %s: %s", path, reason ? reason : "unknown error");
        return false;
    }
#define FBIS_FIND(field)                                                                        \
    do {                                                                                        \
        void *symbol = dlsym(handle, "indexstore_" #field);                                     \
        if (symbol == NULL) {                                                                   \
            snprintf(error, error_size, "%s has no function indexstore_%s", path, #field);      \
            return false;                                                                       \
        }                                                                                       \
        *(void **)&library->field = symbol;                                                     \
    } while (0)
    FBIS_FIND(error_get_description);
    FBIS_FIND(error_dispose);
    FBIS_FIND(store_create);
    FBIS_FIND(store_dispose);
    FBIS_FIND(store_units_apply_f);
    FBIS_FIND(unit_reader_create);
    FBIS_FIND(unit_reader_dispose);
    FBIS_FIND(unit_reader_get_main_file);
    FBIS_FIND(unit_reader_get_module_name);
    FBIS_FIND(unit_reader_dependencies_apply_f);
    FBIS_FIND(unit_dependency_get_kind);
    FBIS_FIND(unit_dependency_get_filepath);
    FBIS_FIND(unit_dependency_get_name);
    FBIS_FIND(record_reader_create);
    FBIS_FIND(record_reader_dispose);
    FBIS_FIND(record_reader_occurrences_apply_f);
    FBIS_FIND(occurrence_get_symbol);
    FBIS_FIND(occurrence_get_roles);
    FBIS_FIND(occurrence_get_line_col);
    FBIS_FIND(occurrence_relations_apply_f);
    FBIS_FIND(symbol_relation_get_roles);
    FBIS_FIND(symbol_relation_get_symbol);
    FBIS_FIND(symbol_get_kind);
    FBIS_FIND(symbol_get_subkind);
    FBIS_FIND(symbol_get_name);
    FBIS_FIND(symbol_get_usr);
#undef FBIS_FIND
    return true;
}
