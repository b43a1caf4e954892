/* The reader registry: every card family's class, in one table. */
#include <string.h>

#include "reader.h"
#include "readers/readers.h"

static const ts_reader_class *const classes[] = {
    &ts_set_reader_class,
    &ts_qwirkle_reader_class,
    &ts_domino_reader_class,
    NULL,
};

const ts_reader_class *const *ts_reader_classes(void)
{
    return classes;
}

const ts_reader_class *ts_reader_class_by_name(const char *name)
{
    if (!name)
        return NULL;
    if (strcmp(name, "eleusis") == 0) /* games played with a family's cards */
        name = "playing";
    else if (strcmp(name, "sapngwu") == 0)
        name = "domino";
    for (int i = 0; classes[i]; i++)
        if (strcmp(classes[i]->name, name) == 0)
            return classes[i];
    return NULL;
}

const ts_reader_class *ts_reader_class_by_profile(const char *profile)
{
    if (!profile)
        return NULL;
    for (int i = 0; classes[i]; i++)
        for (int k = 0; classes[i]->profiles[k]; k++)
            if (strcmp(classes[i]->profiles[k], profile) == 0)
                return classes[i];
    return NULL;
}
