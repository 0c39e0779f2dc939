//! The NPY v1.0 header of an array, as NumPy writes it (`numpy.lib.format.write_array`).
//!
//! Magic `\x93NUMPY`, version 1.0, a little-endian u16 header length, then the repr of a dict
//! (`{'descr': '|u1', 'fortran_order': False, 'shape': (r, c, n), }`), spaces so that the first
//! axis can grow in place (NumPy ≥ 1.24 leaves room for 21 digits), and spaces and a newline up
//! to a multiple of 64 bytes, so that the data starts aligned.

const MAGIC: &[u8] = b"\x93NUMPY";
const ALIGN: usize = 64;
const GROWTH_AXIS_MAX_DIGITS: usize = 21;

/// The element types DLIO's npz files hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dtype {
    /// `x`: the sample bytes.
    U8,
    /// `y`: the labels (a Python list of ints becomes int64).
    I64,
}

impl Dtype {
    fn descr(self) -> &'static str {
        match self {
            Dtype::U8 => "|u1",
            Dtype::I64 => "<i8",
        }
    }
}

/// The header of a C-ordered array of `shape` (the data follows it directly).
pub fn header(dtype: Dtype, shape: &[u64]) -> Vec<u8> {
    let mut dict = format!(
        "{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}",
        dtype.descr(),
        shape_repr(shape)
    );
    if let Some(first) = shape.first() {
        let used = first.to_string().len();
        dict.push_str(&" ".repeat(GROWTH_AXIS_MAX_DIGITS.saturating_sub(used)));
    }
    // Prefix: magic, 2 version bytes, 2 length bytes; the dict ends with '\n'.
    let prefix = MAGIC.len() + 2 + 2;
    let unpadded = prefix + dict.len() + 1;
    let pad = (ALIGN - unpadded % ALIGN) % ALIGN;
    let header_len = u16::try_from(dict.len() + pad + 1).expect("an NPY v1.0 header fits u16");
    let mut out = Vec::with_capacity(unpadded + pad);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[1, 0]);
    out.extend_from_slice(&header_len.to_le_bytes());
    out.extend_from_slice(dict.as_bytes());
    out.resize(out.len() + pad, b' ');
    out.push(b'\n');
    out
}

/// Python's repr of a tuple of ints: `()`, `(5,)`, `(2, 3, 1)`.
fn shape_repr(shape: &[u64]) -> String {
    match shape {
        [] => "()".to_string(),
        [only] => format!("({only},)"),
        _ => {
            let parts: Vec<String> = shape.iter().map(u64::to_string).collect();
            format!("({})", parts.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_is_numpys_aligned_dict() {
        let h = header(Dtype::U8, &[2, 3, 1]);
        assert_eq!(h.len() % ALIGN, 0);
        assert_eq!(&h[..8], b"\x93NUMPY\x01\x00");
        assert_eq!(u16::from_le_bytes([h[8], h[9]]) as usize, h.len() - 10);
        let text = std::str::from_utf8(&h[10..]).unwrap();
        assert!(text.starts_with("{'descr': '|u1', 'fortran_order': False, 'shape': (2, 3, 1), }"));
        assert!(text.ends_with(" \n"));
        assert_eq!(text.len(), 118);
    }

    #[test]
    fn one_axis_shapes_keep_the_trailing_comma() {
        let h = header(Dtype::I64, &[4]);
        let text = std::str::from_utf8(&h[10..]).unwrap();
        assert!(text.starts_with("{'descr': '<i8', 'fortran_order': False, 'shape': (4,), }"));
        assert_eq!(shape_repr(&[]), "()");
    }
}
