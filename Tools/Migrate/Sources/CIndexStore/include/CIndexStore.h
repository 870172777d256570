// The few functions of libIndexStore (the C library of the toolchain that reads the index store
// the compiler writes) that the migration tool calls, declared here after the library's
// documented C ABI, and loaded with dlopen at run time: nothing links against the library.
#ifndef FUTUREBRIDGE_CINDEXSTORE_H
#define FUTUREBRIDGE_CINDEXSTORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// A string the library owns (not NUL-terminated): valid while its reader lives.
typedef struct {
    const char *data;
    size_t length;
} fbis_string;

/// Called once per unit name, dependency, occurrence or relation; false stops the walk.
typedef bool (*fbis_string_applier)(void *context, fbis_string value);
typedef bool (*fbis_pointer_applier)(void *context, void *value);

/// The library's functions, found by name (`indexstore_` + the field's name). Every handle is
/// an opaque pointer; the library's enums are returned as `int`.
typedef struct {
    const char *(*error_get_description)(void *error);
    void (*error_dispose)(void *error);
    void *(*store_create)(const char *path, void **error);
    void (*store_dispose)(void *store);
    bool (*store_units_apply_f)(void *store, unsigned sorted, void *context, fbis_string_applier applier);
    void *(*unit_reader_create)(void *store, const char *unit_name, void **error);
    void (*unit_reader_dispose)(void *reader);
    fbis_string (*unit_reader_get_main_file)(void *reader);
    fbis_string (*unit_reader_get_module_name)(void *reader);
    bool (*unit_reader_dependencies_apply_f)(void *reader, void *context, fbis_pointer_applier applier);
    int (*unit_dependency_get_kind)(void *dependency);
    fbis_string (*unit_dependency_get_filepath)(void *dependency);
    fbis_string (*unit_dependency_get_name)(void *dependency);
    void *(*record_reader_create)(void *store, const char *record_name, void **error);
    void (*record_reader_dispose)(void *reader);
    bool (*record_reader_occurrences_apply_f)(void *reader, void *context, fbis_pointer_applier applier);
    void *(*occurrence_get_symbol)(void *occurrence);
    uint64_t (*occurrence_get_roles)(void *occurrence);
    void (*occurrence_get_line_col)(void *occurrence, unsigned *line, unsigned *column);
    bool (*occurrence_relations_apply_f)(void *occurrence, void *context, fbis_pointer_applier applier);
    uint64_t (*symbol_relation_get_roles)(void *relation);
    void *(*symbol_relation_get_symbol)(void *relation);
    int (*symbol_get_kind)(void *symbol);
    int (*symbol_get_subkind)(void *symbol);
    fbis_string (*symbol_get_name)(void *symbol);
    fbis_string (*symbol_get_usr)(void *symbol);
} fbis_library;

/// Opens the library at `path` and fills `library`. Returns false, with a message in `error`
/// (`error_size` bytes at most), when it cannot be opened or lacks one of the functions.
bool fbis_load(const char *path, fbis_library *library, char *error, size_t error_size);

#endif
