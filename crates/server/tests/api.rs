//! The HTTP API against a real server on an ephemeral port.
//!
//! Every test runs twice: on SQLite and on PostgreSQL (a throwaway cluster,
//! see support/postgres.rs).

#[macro_use]
mod support;

mod sqlite {
    const BACKEND: crate::support::Backend = crate::support::Backend::Sqlite;
    include!("cases/api.rs");
}

mod postgres {
    const BACKEND: crate::support::Backend = crate::support::Backend::Postgres;
    include!("cases/api.rs");
}
