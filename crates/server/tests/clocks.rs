//! Time controls: the server keeps the clocks, a flag fall ends the game, and
//! the clocks survive a restart.
//!
//! Every test runs twice: on SQLite and on PostgreSQL (a throwaway cluster,
//! see support/postgres.rs).

#[macro_use]
mod support;

mod sqlite {
    const BACKEND: crate::support::Backend = crate::support::Backend::Sqlite;
    include!("cases/clocks.rs");
}

mod postgres {
    const BACKEND: crate::support::Backend = crate::support::Backend::Postgres;
    include!("cases/clocks.rs");
}
