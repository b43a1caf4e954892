/* Where tablesight's data lives: the deck profiles and trained models
 * (models/) and the bundled samples (samples/). One lookup for every caller,
 * so an installed program, a build tree and a test all find the same files.
 *
 * The places, first that holds the wanted entry wins:
 *   1. $TABLESIGHT_DATA                  a folder with models/ and samples/
 *   2. EXE_DIR/../share/tablesight       an installed copy (make install puts
 *                                        the program in PREFIX/bin and the
 *                                        data in PREFIX/share/tablesight)
 *   3. the source tree it was built from the build tree's program
 */
#ifndef TS_DATADIR_H
#define TS_DATADIR_H

#include <stddef.h>

/* Writes the path of rel (e.g. "models", "models/classic.profile",
 * "samples/clip") inside the first place above that has it into out.
 * Returns 0; or -1 when no place has it, with out set to where it was looked
 * for last-but-most-likely (the installed place when the program is
 * installed, else the source tree) so a message can name it. */
int ts_data_path(const char *rel, char *out, size_t outlen);

/* A model or profile file: DIR/file when models_dir is given (--models),
 * else models/file in the data directory (ts_data_path). What readers'
 * create() use for the files they load. Returns 0, or -1 when not found (out
 * still names the place looked in, for the message). */
int ts_model_path(const char *models_dir, const char *file, char *out, size_t outlen);

/* The places ts_data_path looks, in order, as one line for messages
 * ("$TABLESIGHT_DATA, /usr/local/share/tablesight, /src/tablesight"). */
void ts_data_places(char *out, size_t outlen);

#endif
