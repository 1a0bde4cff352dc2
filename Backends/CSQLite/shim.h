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

// With SQLite's legacy "double-quoted string" behaviour a quoted identifier that names no column
// silently becomes a text literal ("nope" -> 'nope'). Tandem quotes every identifier, so it turns
// that off for both queries and DDL: a misspelled column is an error, as in the memory engine.
static inline int tandem_sqlite_disable_double_quoted_strings(sqlite3 *db) {
  int rc = sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (int *)0);
  if (rc != SQLITE_OK) return rc;
  return sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, (int *)0);
}

#endif
