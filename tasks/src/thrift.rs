//! A small reader for Apache Thrift's binary protocol (TBinaryProtocol, strict or not: field
//! headers only), enough to read PHYRE's task file and to skip everything it does not need.
//!
//! Defensive by construction: every length is checked against the bytes that remain before
//! anything is allocated or skipped (a list claiming 2^31 elements fails at once, it never
//! reserves memory), nesting is bounded, and every problem is an error with the byte offset.

use core::fmt;

/// Thrift wire types.
pub(crate) mod ty {
    pub const STOP: u8 = 0;
    pub const BOOL: u8 = 2;
    pub const BYTE: u8 = 3;
    pub const DOUBLE: u8 = 4;
    pub const I16: u8 = 6;
    pub const I32: u8 = 8;
    pub const I64: u8 = 10;
    pub const STRING: u8 = 11;
    pub const STRUCT: u8 = 12;
    pub const MAP: u8 = 13;
    pub const SET: u8 = 14;
    pub const LIST: u8 = 15;
}

/// Deepest nesting of structs and containers accepted (PHYRE's file nests 8 deep).
pub(crate) const MAX_DEPTH: u32 = 64;

/// What went wrong in the Thrift stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ThriftErrorKind {
    /// The data ended in the middle of a value.
    Truncated,
    /// A type code that the binary protocol does not define.
    UnknownType(u8),
    /// A negative length or count.
    NegativeLength(i32),
    /// A length or count that cannot fit in the bytes that remain.
    LengthTooLarge { claimed: u64, remaining: usize },
    /// Structs and containers nested deeper than the limit.
    TooDeep,
    /// A string that is not UTF-8.
    NotUtf8,
    /// A container's element type is not the one the schema expects.
    UnexpectedElementType { expected: u8, found: u8 },
}

/// A Thrift decoding error at byte `offset` of the decompressed stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThriftError {
    pub offset: usize,
    pub kind: ThriftErrorKind,
}

impl fmt::Display for ThriftError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}: ", self.offset)?;
        match &self.kind {
            ThriftErrorKind::Truncated => f.write_str("data ends in the middle of a value"),
            ThriftErrorKind::UnknownType(t) => write!(f, "unknown Thrift type code {t}"),
            ThriftErrorKind::NegativeLength(n) => write!(f, "negative length {n}"),
            ThriftErrorKind::LengthTooLarge { claimed, remaining } => write!(
                f,
                "length {claimed} cannot fit in the {remaining} bytes that remain"
            ),
            ThriftErrorKind::TooDeep => write!(f, "nesting deeper than {MAX_DEPTH}"),
            ThriftErrorKind::NotUtf8 => f.write_str("string is not UTF-8"),
            ThriftErrorKind::UnexpectedElementType { expected, found } => {
                write!(f, "container holds type {found}, expected type {expected}")
            }
        }
    }
}

impl std::error::Error for ThriftError {}

/// Smallest encoded size of one value of type `t` (used to bound element counts).
fn min_size(t: u8) -> Option<u64> {
    Some(match t {
        ty::BOOL | ty::BYTE => 1,
        ty::I16 => 2,
        ty::I32 => 4,
        ty::DOUBLE | ty::I64 => 8,
        ty::STRING => 4,
        ty::STRUCT => 1,
        ty::MAP => 6,
        ty::SET | ty::LIST => 5,
        _ => return None,
    })
}

/// A cursor over a Thrift binary-protocol byte stream.
pub(crate) struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub fn new(buf: &'a [u8]) -> Reader<'a> {
        Reader { buf, pos: 0 }
    }

    pub fn offset(&self) -> usize {
        self.pos
    }

    pub fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    pub fn err(&self, kind: ThriftErrorKind) -> ThriftError {
        ThriftError {
            offset: self.pos,
            kind,
        }
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], ThriftError> {
        if n > self.remaining() {
            return Err(self.err(ThriftErrorKind::Truncated));
        }
        let s = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], ThriftError> {
        let s = self.take(N)?;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }

    pub fn u8(&mut self) -> Result<u8, ThriftError> {
        Ok(self.array::<1>()?[0])
    }

    pub fn i16(&mut self) -> Result<i16, ThriftError> {
        Ok(i16::from_be_bytes(self.array()?))
    }

    pub fn i32(&mut self) -> Result<i32, ThriftError> {
        Ok(i32::from_be_bytes(self.array()?))
    }

    pub fn f64(&mut self) -> Result<f64, ThriftError> {
        Ok(f64::from_bits(u64::from_be_bytes(self.array()?)))
    }

    /// A length or count: non-negative and, with each item at least `item_size` bytes, not
    /// more than what remains. Checked before anything is allocated.
    fn length(&mut self, item_size: u64) -> Result<usize, ThriftError> {
        let at = self.pos;
        let n = self.i32()?;
        if n < 0 {
            return Err(ThriftError {
                offset: at,
                kind: ThriftErrorKind::NegativeLength(n),
            });
        }
        let need = u64::from(n.unsigned_abs()) * item_size;
        if need > self.remaining() as u64 {
            return Err(ThriftError {
                offset: at,
                kind: ThriftErrorKind::LengthTooLarge {
                    claimed: u64::from(n.unsigned_abs()),
                    remaining: self.remaining(),
                },
            });
        }
        Ok(n as usize)
    }

    pub fn binary(&mut self) -> Result<&'a [u8], ThriftError> {
        let n = self.length(1)?;
        self.take(n)
    }

    pub fn string(&mut self) -> Result<&'a str, ThriftError> {
        let at = self.pos;
        let b = self.binary()?;
        core::str::from_utf8(b).map_err(|_| ThriftError {
            offset: at,
            kind: ThriftErrorKind::NotUtf8,
        })
    }

    /// The next field header of a struct: `None` at the STOP byte, else (type, field id).
    pub fn field(&mut self) -> Result<Option<(u8, i16)>, ThriftError> {
        let t = self.u8()?;
        if t == ty::STOP {
            return Ok(None);
        }
        if min_size(t).is_none() {
            return Err(ThriftError {
                offset: self.pos - 1,
                kind: ThriftErrorKind::UnknownType(t),
            });
        }
        Ok(Some((t, self.i16()?)))
    }

    /// A list (or set) header whose elements must be of type `expected`; returns the count,
    /// already checked against the remaining bytes.
    pub fn list_of(&mut self, expected: u8) -> Result<usize, ThriftError> {
        let at = self.pos;
        let et = self.u8()?;
        if et != expected {
            return Err(ThriftError {
                offset: at,
                kind: ThriftErrorKind::UnexpectedElementType {
                    expected,
                    found: et,
                },
            });
        }
        let size = min_size(et).ok_or(ThriftError {
            offset: at,
            kind: ThriftErrorKind::UnknownType(et),
        })?;
        self.length(size)
    }

    /// Skip one value of type `t`, whatever it holds (nested structs, lists, sets and maps
    /// included), at nesting `depth`.
    pub fn skip(&mut self, t: u8, depth: u32) -> Result<(), ThriftError> {
        if depth > MAX_DEPTH {
            return Err(self.err(ThriftErrorKind::TooDeep));
        }
        match t {
            ty::BOOL | ty::BYTE => {
                self.take(1)?;
            }
            ty::I16 => {
                self.take(2)?;
            }
            ty::I32 => {
                self.take(4)?;
            }
            ty::DOUBLE | ty::I64 => {
                self.take(8)?;
            }
            ty::STRING => {
                self.binary()?;
            }
            ty::STRUCT => {
                while let Some((ft, _)) = self.field()? {
                    self.skip(ft, depth + 1)?;
                }
            }
            ty::MAP => {
                let at = self.pos;
                let kt = self.u8()?;
                let vt = self.u8()?;
                let (Some(ks), Some(vs)) = (min_size(kt), min_size(vt)) else {
                    let bad = if min_size(kt).is_none() { kt } else { vt };
                    return Err(ThriftError {
                        offset: at,
                        kind: ThriftErrorKind::UnknownType(bad),
                    });
                };
                let n = self.length(ks + vs)?;
                for _ in 0..n {
                    self.skip(kt, depth + 1)?;
                    self.skip(vt, depth + 1)?;
                }
            }
            ty::SET | ty::LIST => {
                let at = self.pos;
                let et = self.u8()?;
                let size = min_size(et).ok_or(ThriftError {
                    offset: at,
                    kind: ThriftErrorKind::UnknownType(et),
                })?;
                let n = self.length(size)?;
                for _ in 0..n {
                    self.skip(et, depth + 1)?;
                }
            }
            other => return Err(self.err(ThriftErrorKind::UnknownType(other))),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skip_all(bytes: &[u8]) -> Result<usize, ThriftError> {
        let mut r = Reader::new(bytes);
        r.skip(ty::STRUCT, 0)?;
        Ok(r.offset())
    }

    #[test]
    fn skips_every_type_including_nested_containers() {
        let mut b = Vec::new();
        // bool, byte, i16, i32, i64, double, string
        b.extend([ty::BOOL, 0, 1, 1]);
        b.extend([ty::BYTE, 0, 2, 0xff]);
        b.extend([ty::I16, 0, 3, 0, 7]);
        b.extend([ty::I32, 0, 4, 0, 0, 0, 7]);
        b.extend([ty::I64, 0, 5]);
        b.extend([0; 8]);
        b.extend([ty::DOUBLE, 0, 6]);
        b.extend(1.5f64.to_bits().to_be_bytes());
        b.extend([ty::STRING, 0, 7, 0, 0, 0, 2, b'h', b'i']);
        // map<i32, list<string>> with one entry
        b.extend([ty::MAP, 0, 8, ty::I32, ty::LIST, 0, 0, 0, 1]);
        b.extend([0, 0, 0, 9, ty::STRING, 0, 0, 0, 1, 0, 0, 0, 1, b'x']);
        // set<struct{1: i32}> with two elements
        b.extend([ty::SET, 0, 9, ty::STRUCT, 0, 0, 0, 2]);
        b.extend([ty::I32, 0, 1, 0, 0, 0, 1, ty::STOP]);
        b.extend([ty::STOP]);
        // nested struct
        b.extend([ty::STRUCT, 0, 10, ty::STRUCT, 0, 1, ty::STOP, ty::STOP]);
        b.push(ty::STOP);
        let end = b.len();
        b.extend([0xAA, 0xBB]); // trailing bytes are not consumed
        assert_eq!(skip_all(&b), Ok(end));
    }

    #[test]
    fn huge_counts_fail_before_allocating() {
        // A list of 2^31 − 1 structs in a 20-byte buffer.
        let b = [
            ty::LIST,
            0,
            1,
            ty::STRUCT,
            0x7f,
            0xff,
            0xff,
            0xff,
            0,
            0,
            0,
            0,
        ];
        let e = skip_all(&b).unwrap_err();
        assert!(matches!(
            e.kind,
            ThriftErrorKind::LengthTooLarge {
                claimed: 2147483647,
                ..
            }
        ));
        let b = [ty::STRING, 0, 1, 0x80, 0, 0, 0];
        assert_eq!(
            skip_all(&b).unwrap_err().kind,
            ThriftErrorKind::NegativeLength(i32::MIN)
        );
        let b = [ty::MAP, 0, 1, ty::I64, ty::I64, 0, 0, 0, 1, 0, 0, 0];
        assert!(matches!(
            skip_all(&b).unwrap_err().kind,
            ThriftErrorKind::LengthTooLarge { .. }
        ));
        let mut r = Reader::new(&[ty::I32, 0, 0, 0, 5, 0, 0]);
        assert!(matches!(
            r.list_of(ty::I32).unwrap_err().kind,
            ThriftErrorKind::LengthTooLarge { .. }
        ));
    }

    #[test]
    fn bad_types_truncation_and_depth_are_errors() {
        assert_eq!(
            skip_all(&[1, 0, 1]).unwrap_err().kind,
            ThriftErrorKind::UnknownType(1)
        );
        assert_eq!(
            skip_all(&[ty::LIST, 0, 1, 99, 0, 0, 0, 0])
                .unwrap_err()
                .kind,
            ThriftErrorKind::UnknownType(99)
        );
        assert_eq!(
            skip_all(&[ty::I64, 0, 1, 0, 0]).unwrap_err().kind,
            ThriftErrorKind::Truncated
        );
        assert_eq!(skip_all(&[]).unwrap_err().kind, ThriftErrorKind::Truncated);
        // 100 nested structs.
        let mut b = Vec::new();
        for _ in 0..100 {
            b.extend([ty::STRUCT, 0, 1]);
        }
        b.extend(vec![ty::STOP; 101]);
        assert_eq!(skip_all(&b).unwrap_err().kind, ThriftErrorKind::TooDeep);
        let mut r = Reader::new(&[0, 0, 0, 2, 0xff, 0xfe]);
        assert_eq!(r.string().unwrap_err().kind, ThriftErrorKind::NotUtf8);
    }
}
