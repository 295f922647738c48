//! Caller-provided output buffers (numpy arrays, or anything with the buffer protocol)
//! that the native encodings write into without a copy.
//!
//! A buffer is taken through PyO3's `PyBuffer<T>` (the buffer protocol, available under
//! abi3 from Python 3.11) and checked before anything is written: its element type
//! (`float32`, `int8`, ...), that it is writable, C-contiguous and of one of the
//! expected shapes. Each failure is a `ValueError` naming the argument, what it should
//! be and what it is.

use pyo3::buffer::{Element, PyBuffer};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// Python's text of a shape: `(3,)`, `(2, 3)`.
pub(crate) fn shape_text(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// What `obj` is, for a message: `an array of dtype float64 and shape (3,)`, or its type.
fn describe(obj: &Bound<'_, PyAny>) -> String {
    let attr = |name: &str| {
        obj.getattr(name)
            .and_then(|v| v.str())
            .map(|s| s.to_string_lossy().into_owned())
            .ok()
    };
    match (attr("dtype"), attr("shape")) {
        (Some(dtype), Some(shape)) => format!("an array of dtype {dtype} and shape {shape}"),
        _ => obj
            .get_type()
            .name()
            .map(|n| format!("a {}", n.to_string_lossy()))
            .unwrap_or_else(|_| "an object".to_string()),
    }
}

/// A checked, writable, C-contiguous buffer of `T` lent by the caller.
pub(crate) struct Out<T: Element> {
    buf: PyBuffer<T>,
}

impl<T: Element> Out<T> {
    /// The buffer of `obj`, which must hold `dtype` values (the numpy name, for
    /// messages) in one of `shapes`; `what` names the argument.
    ///
    /// Raises ValueError naming what is wrong: not a buffer of `dtype`, read-only, not
    /// C-contiguous, or of another shape.
    pub(crate) fn get(
        obj: &Bound<'_, PyAny>,
        what: &str,
        dtype: &str,
        shapes: &[&[usize]],
    ) -> PyResult<Out<T>> {
        let wanted = shapes
            .iter()
            .map(|s| shape_text(s))
            .collect::<Vec<_>>()
            .join(" or ");
        let buf = PyBuffer::<T>::get(obj).map_err(|_| {
            PyValueError::new_err(format!(
                "{what} must be a writable C-contiguous {dtype} array of shape {wanted}, not {}",
                describe(obj)
            ))
        })?;
        if buf.readonly() {
            return Err(PyValueError::new_err(format!(
                "{what} is read-only; a writable {dtype} array of shape {wanted} is needed"
            )));
        }
        if !shapes.contains(&buf.shape()) {
            return Err(PyValueError::new_err(format!(
                "{what} has shape {}, expected {wanted}",
                shape_text(buf.shape())
            )));
        }
        if !buf.is_c_contiguous() {
            return Err(PyValueError::new_err(format!(
                "{what} is not C-contiguous (a strided view); pass a contiguous {dtype} array \
                 (numpy.ascontiguousarray)"
            )));
        }
        Ok(Out { buf })
    }

    /// The buffer's bytes, as an address range (for overlap checks).
    pub(crate) fn span(&self) -> (usize, usize) {
        let start = self.buf.buf_ptr() as usize;
        (start, start + self.buf.len_bytes())
    }

    /// The values, to write.
    pub(crate) fn slice(&mut self) -> &mut [T] {
        let len = self.buf.item_count();
        if len == 0 {
            return &mut [];
        }
        // SAFETY: `PyBuffer::get` checked the element type, size and alignment, and `get`
        // above that the buffer is writable and C-contiguous, so its `len` items lie one
        // after another from `buf_ptr`. The exporter keeps the memory alive while `buf`
        // holds the buffer, which outlives the returned borrow; `&mut self` makes it the
        // only slice of this buffer, and `disjoint` checks that the buffers of one call
        // do not overlap. (Python code running meanwhile in another thread could touch
        // the same memory, as with any numpy function that releases the GIL.)
        unsafe { std::slice::from_raw_parts_mut(self.buf.buf_ptr().cast::<T>(), len) }
    }
}

/// Raises ValueError if any two of `spans` (named) share memory.
pub(crate) fn disjoint(spans: &[(&str, (usize, usize))]) -> PyResult<()> {
    for (i, (a, (a0, a1))) in spans.iter().enumerate() {
        for (b, (b0, b1)) in &spans[i + 1..] {
            if a0 < b1 && b0 < a1 {
                return Err(PyValueError::new_err(format!(
                    "the buffers {a} and {b} share memory; pass separate arrays"
                )));
            }
        }
    }
    Ok(())
}
