//! The front end's syntax: the AST ([`ast`]), the parser (the only file importing nom) and
//! the pretty-printer.
pub mod ast;
