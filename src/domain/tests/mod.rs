//! Tests of the DLC domain: its laws, and the paper's worked examples.

mod dlc_laws;
mod paper_examples;
