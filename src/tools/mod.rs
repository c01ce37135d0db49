//! Tools over the library, for the CLI's `lpmc regress` and `lpmc scale`: they use only
//! the public API (the crate root's `pub use` list), and run each engine in a child
//! process (the `lpmc` binary) with a time limit. No core module imports them.

pub mod commands;
pub mod regress;
pub mod regress_page;
pub mod scale;
