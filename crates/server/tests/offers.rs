//! Draw offers, takebacks and replays over HTTP, between two players and
//! against the AI.
//!
//! Every test runs twice: on SQLite and on PostgreSQL (a throwaway cluster,
//! see support/postgres.rs).

#[macro_use]
mod support;

mod sqlite {
    const BACKEND: crate::support::Backend = crate::support::Backend::Sqlite;
    include!("cases/offers.rs");
}

mod postgres {
    const BACKEND: crate::support::Backend = crate::support::Backend::Postgres;
    include!("cases/offers.rs");
}
