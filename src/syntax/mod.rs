//! The front end's syntax: the AST ([`ast`]) and the parser (the only module using nom);
//! a pretty-printer (for the tests and for `metamorph`, which prints rewritten programs):
//! `parse(pretty(p))` gives back `p` up to spans (`erase_spans`).
pub mod ast;
mod parser;
mod pretty;
#[cfg(test)]
mod tests;

pub use parser::parse;
pub use pretty::pretty;
#[cfg(test)]
pub use pretty::{erase_spans, pretty_expr, pretty_stmt};
