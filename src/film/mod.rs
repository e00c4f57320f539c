//! A film of a screen: frames of cells drawn as pixels ([`raster`]) and written as an animated
//! GIF. Each frame holds only the part of the screen that changed since the one before (a frame
//! that changes nothing lengthens the one before), with a palette of its own, so a film of a
//! machine learning is small. The same frames give the same bytes.

pub mod raster;

use std::collections::HashMap;

pub use raster::{Image, Raster, Rgb};
use thiserror::Error;

#[derive(Debug, Error)]
pub enum FilmError {
    #[error("a film of {0}×{1} pixels is more than a GIF holds (65,535 a side)")]
    TooBig(usize, usize),
    #[error("the film could not be written: {0}")]
    Gif(String),
}

/// An animated GIF being written, frame by frame, into memory.
pub struct GifFilm {
    encoder: gif::Encoder<Vec<u8>>,
    last: Option<Image>,
    pending: Option<gif::Frame<'static>>,
    frames: usize,
}

impl GifFilm {
    /// A film of `width` × `height` pixels that plays in a loop.
    pub fn new(width: usize, height: usize) -> Result<GifFilm, FilmError> {
        let (Ok(w), Ok(h)) = (u16::try_from(width), u16::try_from(height)) else {
            return Err(FilmError::TooBig(width, height));
        };
        let gif = |e: gif::EncodingError| FilmError::Gif(e.to_string());
        let mut encoder = gif::Encoder::new(Vec::new(), w, h, &[]).map_err(gif)?;
        encoder.set_repeat(gif::Repeat::Infinite).map_err(gif)?;
        Ok(GifFilm {
            encoder,
            last: None,
            pending: None,
            frames: 0,
        })
    }

    /// Adds a frame shown for `delay` hundredths of a second.
    pub fn push(&mut self, img: &Image, delay: u16) -> Result<(), FilmError> {
        let changed = match &self.last {
            None => Some((0, 0, img.width, img.height)),
            Some(prev) => changed_box(prev, img),
        };
        let Some((x, y, w, h)) = changed else {
            if let Some(p) = &mut self.pending {
                p.delay = p.delay.saturating_add(delay);
            }
            return Ok(());
        };
        self.flush()?;
        let (palette, indexes) = indexed(img, x, y, w, h);
        self.pending = Some(gif::Frame {
            left: x as u16,
            top: y as u16,
            width: w as u16,
            height: h as u16,
            delay,
            dispose: gif::DisposalMethod::Keep,
            palette: Some(palette),
            buffer: indexes.into(),
            ..gif::Frame::default()
        });
        self.last = Some(img.clone());
        Ok(())
    }

    fn flush(&mut self) -> Result<(), FilmError> {
        if let Some(frame) = self.pending.take() {
            self.encoder
                .write_frame(&frame)
                .map_err(|e| FilmError::Gif(e.to_string()))?;
            self.frames += 1;
        }
        Ok(())
    }

    /// The frames written (after [`GifFilm::finish`], all of them).
    pub fn frames(&self) -> usize {
        self.frames
    }

    /// The film's bytes.
    pub fn finish(mut self) -> Result<Vec<u8>, FilmError> {
        self.flush()?;
        self.encoder
            .into_inner()
            .map_err(|e| FilmError::Gif(e.to_string()))
    }
}

/// The smallest box holding every pixel that differs: (x, y, width, height).
fn changed_box(a: &Image, b: &Image) -> Option<(usize, usize, usize, usize)> {
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for y in 0..b.height {
        let row = y * b.width;
        let (pa, pb) = (&a.pixels[row..row + b.width], &b.pixels[row..row + b.width]);
        if pa == pb {
            continue;
        }
        let first = pa.iter().zip(pb).position(|(p, q)| p != q).unwrap_or(0);
        let last = pa.iter().zip(pb).rposition(|(p, q)| p != q).unwrap_or(0);
        (x0, x1) = (x0.min(first), x1.max(last));
        (y0, y1) = (y0.min(y), y);
    }
    (x0 != usize::MAX).then(|| (x0, y0, x1 - x0 + 1, y1 - y0 + 1))
}

/// The box's pixels as palette indexes, and the palette (RGB triples): colours in the order met,
/// the 257th and later mapped to the nearest of the first 256.
fn indexed(img: &Image, x: usize, y: usize, w: usize, h: usize) -> (Vec<u8>, Vec<u8>) {
    let mut colours: Vec<Rgb> = Vec::new();
    let mut index: HashMap<Rgb, u8> = HashMap::new();
    let mut out = Vec::with_capacity(w * h);
    for row in y..y + h {
        for &c in &img.pixels[row * img.width + x..row * img.width + x + w] {
            let i = match index.get(&c) {
                Some(&i) => i,
                None if colours.len() < 256 => {
                    colours.push(c);
                    let i = (colours.len() - 1) as u8;
                    index.insert(c, i);
                    i
                }
                None => nearest(&colours, c),
            };
            out.push(i);
        }
    }
    let palette = colours.iter().flat_map(|&(r, g, b)| [r, g, b]).collect();
    (palette, out)
}

fn nearest(colours: &[Rgb], c: Rgb) -> u8 {
    let d = |p: &Rgb| {
        let sq = |a: u8, b: u8| (a as i32 - b as i32).pow(2);
        sq(p.0, c.0) + sq(p.1, c.1) + sq(p.2, c.2)
    };
    (0..colours.len())
        .min_by_key(|&i| d(&colours[i]))
        .unwrap_or(0) as u8
}

/// Bytes shared between the PNG writer that fills them and the film that hands them over.
#[derive(Clone, Default)]
struct Shared(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);

impl std::io::Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// An animated PNG (APNG) being written frame by frame, in a loop: its number of frames said
/// first (an APNG states it before any frame), then each frame as it comes; after the first,
/// only the part of the screen that changed, drawn over the frame before. Lossless: bigger than
/// the GIF, with every colour exact. Memory holds the frame before and the compressed film.
pub struct ApngFilm {
    writer: png::Writer<Shared>,
    out: Shared,
    last: Option<Image>,
    frames: u32,
    written: u32,
    bytes: Vec<u8>,
}

fn png_error(e: png::EncodingError) -> FilmError {
    FilmError::Gif(e.to_string())
}

impl ApngFilm {
    /// A film of `frames` frames of `width` × `height` pixels.
    pub fn new(width: usize, height: usize, frames: u32) -> Result<ApngFilm, FilmError> {
        let (Ok(w), Ok(h)) = (u32::try_from(width), u32::try_from(height)) else {
            return Err(FilmError::TooBig(width, height));
        };
        let out = Shared::default();
        let mut encoder = png::Encoder::new(out.clone(), w, h);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_animated(frames.max(1), 0).map_err(png_error)?;
        let mut writer = encoder.write_header().map_err(png_error)?;
        writer
            .set_blend_op(png::BlendOp::Source)
            .map_err(png_error)?;
        writer
            .set_dispose_op(png::DisposeOp::None)
            .map_err(png_error)?;
        Ok(ApngFilm {
            writer,
            out,
            last: None,
            frames: frames.max(1),
            written: 0,
            bytes: Vec::new(),
        })
    }

    /// Writes the next frame, shown for `delay` hundredths of a second; frames past the number
    /// said at the start are left out.
    pub fn push(&mut self, img: &Image, delay: u16) -> Result<(), FilmError> {
        if self.written == self.frames {
            return Ok(());
        }
        let (x, y, w, h) = match &self.last {
            None => (0, 0, img.width, img.height),
            // An unchanged picture is still a frame (the count was said): one pixel of it.
            Some(prev) => changed_box(prev, img).unwrap_or((0, 0, 1, 1)),
        };
        let wr = &mut self.writer;
        wr.set_frame_position(0, 0).map_err(png_error)?;
        wr.set_frame_dimension(w as u32, h as u32)
            .map_err(png_error)?;
        wr.set_frame_position(x as u32, y as u32)
            .map_err(png_error)?;
        wr.set_frame_delay(delay, 100).map_err(png_error)?;
        self.bytes.clear();
        for row in y..y + h {
            let line = &img.pixels[row * img.width + x..row * img.width + x + w];
            self.bytes
                .extend(line.iter().flat_map(|&(r, g, b)| [r, g, b]));
        }
        wr.write_image_data(&self.bytes).map_err(png_error)?;
        self.written += 1;
        self.last = Some(img.clone());
        Ok(())
    }

    /// The film's bytes (every frame said must have been written).
    pub fn finish(self) -> Result<Vec<u8>, FilmError> {
        self.writer.finish().map_err(png_error)?;
        Ok(std::mem::take(&mut *self.out.0.borrow_mut()))
    }
}
