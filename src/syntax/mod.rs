//! The front end's syntax: the AST ([`ast`]) and the parser (the only module using nom);
//! for the tests, a pretty-printer: `parse(pretty(p))` gives back `p` up to spans
//! (`erase_spans`).
pub mod ast;
mod parser;
#[cfg(test)]
mod pretty;
#[cfg(test)]
mod tests;

pub use parser::parse;
#[cfg(test)]
pub use pretty::{erase_spans, pretty, pretty_expr, pretty_stmt};
