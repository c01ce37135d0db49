//! The front end's syntax: the AST ([`ast`]), the parser (the only module using nom) and
//! the pretty-printer. `parse(pretty(p))` gives back `p` up to spans ([`erase_spans`]).
pub mod ast;
mod parser;
mod pretty;

pub use parser::parse;
pub use pretty::{erase_spans, pretty, pretty_expr, pretty_stmt};
