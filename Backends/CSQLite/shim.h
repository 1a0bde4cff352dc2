#ifndef TANDEM_CSQLITE_SHIM_H
#define TANDEM_CSQLITE_SHIM_H

#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
static inline sqlite3_destructor_type tandem_sqlite_transient(void) {
  return SQLITE_TRANSIENT;
}

// sqlite3_config and sqlite3_db_config are variadic; Swift needs fixed signatures.
static inline int tandem_sqlite_enable_foreign_keys(sqlite3 *db, int enable) {
  return sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_FKEY, enable, (int *)0);
}

#endif
