//! The storage interface on both backends, below the HTTP layer: the AI
//! moves' jobs, their leases, retries and fair order.

#[macro_use]
mod support;

mod sqlite {
    const BACKEND: crate::support::Backend = crate::support::Backend::Sqlite;
    include!("cases/storage.rs");
}

mod postgres {
    const BACKEND: crate::support::Backend = crate::support::Backend::Postgres;
    include!("cases/storage.rs");
}
