//! lpmc: a symbolic model checker for generalised linear programs with arrays, after
//! Armando, Benerecetti and Mantovani, *Model Checking Linear Programs with Arrays*
//! (EUREKA). See `../shared/ARCHITECTURE.md` for the design.
//!
//! The modules are listed in pipeline order; a module uses only modules above it
//! (the shared leaves `diag`, `ids` and `linear` excepted):
//! text → [`syntax`] → `sema` → `cfg` → `abstraction` → `engine` → `trace` → [`smt`] →
//! `refine`, with `driver` running the loop.

pub mod abstraction;
pub mod bmc;
pub mod cfg;
pub mod diag;
pub mod domain;
pub mod driver;
pub mod engine;
pub mod frontend;
pub mod ids;
pub mod interp;
pub mod limits;
pub mod linear;
pub mod portfolio;
pub mod refine;
pub mod regress;
pub mod report;
pub mod run;
pub mod scale;
pub mod search;
pub mod sema;
pub mod smt;
pub mod syntax;
pub mod trace;
