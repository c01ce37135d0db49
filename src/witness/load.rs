//! Reading a witness file. A violation sequence may hold a segment per input of a long
//! run (millions), and the YAML tree of each costs a kilobyte or more; so the items of a
//! `violation_sequence` entry's `content` are read one at a time, each turned into a
//! [`Segment`] as soon as it ends, and the tree keeps the entry with an empty `content`.
//! Everything else (metadata, an `invariant_set`, the content of an entry whose
//! `entry_type` comes after its `content`) is the tree `yaml_rust2` builds.

use super::segments::{segment, Segment, WitnessProblem};
use std::collections::{BTreeMap, BTreeSet};
use yaml_rust2::parser::{MarkedEventReceiver, Parser};
use yaml_rust2::scanner::{Marker, ScanError};
use yaml_rust2::{Event, Yaml, YamlLoader};

/// A witness file read.
pub(super) struct Witness {
    /// The YAML documents.
    pub docs: Vec<Yaml>,
    /// By the index of an entry of the first document, the segments of a
    /// `violation_sequence` read item by item (its `content` is empty in `docs`).
    pub segments: BTreeMap<usize, Result<Vec<Segment>, WitnessProblem>>,
}

/// An open collection, as the events nest.
enum Frame {
    Seq {
        /// The content of a violation sequence: its items are read one at a time.
        content: bool,
    },
    Map {
        /// Whether the next node is a key.
        expect_key: bool,
        /// The last scalar key.
        key: Option<String>,
        /// The scalar keys so far (a key given twice is an error, as for `yaml_rust2`).
        keys: BTreeSet<String>,
    },
}

#[derive(Default)]
struct Reader {
    outer: YamlLoader,
    frames: Vec<Frame>,
    /// The index of the current entry of the first document, and its `entry_type`.
    entry: Option<usize>,
    entry_type: Option<String>,
    /// The item being read: its own loader, and how many collections are open in it.
    item: Option<(YamlLoader, usize)>,
    /// Items read so far in the current content.
    items: usize,
    segments: BTreeMap<usize, Result<Vec<Segment>, WitnessProblem>>,
    documents: usize,
    error: Option<ScanError>,
}

impl Reader {
    /// A node (scalar, alias or collection) has ended in the innermost frame.
    fn node_done(&mut self) {
        if let Some(Frame::Map { expect_key, .. }) = self.frames.last_mut() {
            *expect_key = !*expect_key;
        }
    }

    /// The start of a node in the innermost frame: is it a content item?
    fn in_content(&self) -> bool {
        matches!(self.frames.last(), Some(Frame::Seq { content: true }))
    }

    fn scalar(&mut self, v: &str, mark: Marker) {
        let depth = self.frames.len();
        if let Some(Frame::Map {
            expect_key,
            key,
            keys,
        }) = self.frames.last_mut()
        {
            if *expect_key {
                if !keys.insert(v.to_string()) {
                    self.error.get_or_insert_with(|| {
                        ScanError::new_string(mark, format!("{v:?}: duplicated key in mapping"))
                    });
                }
                *key = Some(v.to_string());
            } else if depth == 2 && self.documents == 0 && key.as_deref() == Some("entry_type") {
                self.entry_type = Some(v.to_string());
            }
        }
        self.node_done();
    }

    fn start(&mut self, ev: &Event) {
        let depth = self.frames.len();
        // An entry of the first document starts.
        if depth == 1 && self.documents == 0 && matches!(ev, Event::MappingStart(..)) {
            self.entry = Some(self.entry.map_or(0, |e| e + 1));
            self.entry_type = None;
        }
        let content = depth == 2
            && self.documents == 0
            && matches!(ev, Event::SequenceStart(..))
            && self.entry_type.as_deref() == Some("violation_sequence")
            && matches!(self.frames.last(), Some(Frame::Map { expect_key: false, key: Some(k), .. }) if k == "content");
        if content {
            self.items = 0;
            if let Some(e) = self.entry {
                self.segments.insert(e, Ok(Vec::new()));
            }
        }
        self.frames.push(match ev {
            Event::SequenceStart(..) => Frame::Seq { content },
            _ => Frame::Map {
                expect_key: true,
                key: None,
                keys: BTreeSet::new(),
            },
        });
    }

    /// The item just read, as a segment of the current entry.
    fn item_done(&mut self, loader: YamlLoader) {
        self.items += 1;
        let Some(e) = self.entry else { return };
        if let Some(Ok(segs)) = self.segments.get_mut(&e) {
            let item = loader.documents().first().unwrap_or(&Yaml::BadValue);
            match segment(item, self.items) {
                Ok(s) => segs.push(s),
                Err(p) => {
                    self.segments.insert(e, Err(p));
                }
            }
        }
    }
}

impl MarkedEventReceiver for Reader {
    fn on_event(&mut self, ev: Event, mark: Marker) {
        // The bookkeeping of nesting, keys and entries, for every event.
        let starts_item = self.item.is_none()
            && self.in_content()
            && matches!(
                ev,
                Event::Scalar(..)
                    | Event::Alias(_)
                    | Event::SequenceStart(..)
                    | Event::MappingStart(..)
            );
        match &ev {
            Event::SequenceStart(..) | Event::MappingStart(..) => self.start(&ev),
            Event::SequenceEnd | Event::MappingEnd => {
                self.frames.pop();
                self.node_done();
            }
            Event::Scalar(v, ..) => self.scalar(v, mark),
            Event::Alias(_) => self.node_done(),
            Event::DocumentEnd => self.documents += 1,
            _ => {}
        }
        // Where the event goes: the item's loader, or the tree.
        if starts_item {
            let mut loader = YamlLoader::default();
            loader.on_event(Event::DocumentStart, mark);
            self.item = Some((loader, 0));
        }
        if let Some((mut loader, open)) = self.item.take() {
            let open = match ev {
                Event::SequenceStart(..) | Event::MappingStart(..) => open + 1,
                Event::SequenceEnd | Event::MappingEnd => open - 1,
                _ => open,
            };
            loader.on_event(ev, mark);
            if open == 0 {
                loader.on_event(Event::DocumentEnd, mark);
                self.item_done(loader);
            } else {
                self.item = Some((loader, open));
            }
            return;
        }
        self.outer.on_event(ev, mark);
    }
}

/// Read a witness file's text.
pub(super) fn read(text: &str) -> Result<Witness, ScanError> {
    let mut reader = Reader::default();
    Parser::new(text.chars()).load(&mut reader, true)?;
    if let Some(e) = reader.error {
        return Err(e);
    }
    Ok(Witness {
        docs: reader.outer.documents().to_vec(),
        segments: reader.segments,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::witness::segments::segments;

    const WITNESS: &str = r#"
- entry_type: violation_sequence
  metadata: {format_version: "2.0"}
  content:
    - segment:
        - waypoint: {type: assumption, action: avoid, location: {line: 3, column: 1}, constraint: {value: "x == 1"}}
        - waypoint: {type: function_return, action: follow, location: {line: 4}, constraint: {value: "\\result == 7"}}
    - segment:
        - waypoint:
            type: target
            action: follow
            location:
              line: 9
- entry_type: invariant_set
  content:
    - invariant: {type: loop_invariant, value: "i >= 0"}
"#;

    /// The segments of the tree `yaml_rust2` builds, read as before.
    fn from_tree(text: &str) -> String {
        let docs = YamlLoader::load_from_str(text).expect("YAML");
        let entries: Vec<(usize, &Yaml)> = docs[0]
            .as_vec()
            .expect("entries")
            .iter()
            .enumerate()
            .filter(|(_, e)| e["entry_type"].as_str() == Some("violation_sequence"))
            .collect();
        format!("{:?}", segments(&entries, &mut BTreeMap::new()))
    }

    #[test]
    fn a_violation_sequence_is_read_item_by_item_into_the_same_segments() {
        let w = read(WITNESS).expect("reads");
        assert_eq!(w.segments.len(), 1, "one entry read item by item");
        let entries = w.docs[0].as_vec().expect("entries");
        // The entry keeps its keys, with an empty content; other entries are whole.
        assert_eq!(entries[0]["content"].as_vec().map(Vec::len), Some(0));
        assert_eq!(
            entries[0]["metadata"]["format_version"].as_str(),
            Some("2.0")
        );
        assert_eq!(entries[1]["content"].as_vec().map(Vec::len), Some(1));
        let mut read_segs = w.segments;
        let got = format!("{:?}", segments(&[(0, &entries[0])], &mut read_segs));
        assert_eq!(got, from_tree(WITNESS));
        assert!(got.starts_with("Ok("), "{got}");
    }

    #[test]
    fn a_content_before_its_entry_type_is_read_as_a_tree() {
        let text = r#"
- content:
    - segment:
        - waypoint: {type: target, action: follow, location: {line: 9}}
  entry_type: violation_sequence
"#;
        let w = read(text).expect("reads");
        assert!(w.segments.is_empty());
        let entries = w.docs[0].as_vec().expect("entries");
        assert_eq!(entries[0]["content"].as_vec().map(Vec::len), Some(1));
        assert_eq!(
            entries[0]["entry_type"].as_str(),
            Some("violation_sequence")
        );
    }

    #[test]
    fn a_bad_item_is_an_error_of_its_segment_and_a_repeated_key_is_not_yaml() {
        let bad = WITNESS.replace("action: follow, location: {line: 4}", "location: {line: 4}");
        let mut w = read(&bad).expect("reads");
        let entries = w.docs[0].as_vec().expect("entries").clone();
        let got = format!("{:?}", segments(&[(0, &entries[0])], &mut w.segments));
        assert_eq!(got, from_tree(&bad));
        assert!(got.contains("segment 1"), "{got}");
        let twice = WITNESS.replace("location: {line: 4}", "location: {line: 4, line: 5}");
        assert!(read(&twice).is_err());
        assert!(YamlLoader::load_from_str(&twice).is_err());
    }
}
