//! The learned evaluation: a small dense network evaluated in f32 inside the
//! search, with no Python in the loop.
//!
//! The network takes a position's features from one seat's point of view
//! (`crate::features`) through hidden ReLU layers to two heads:
//!
//! - **value**: [`VALUES`] outputs through a logistic function, the chance
//!   that each seat wins, seats counted from the viewer (0 = the viewer, 1 =
//!   the next player in turn, ...); seats beyond the player count mean nothing;
//! - **policy**: [`POLICY`] logits over the first move-building step
//!   (`interfaces/encoding.py`: 0 pass, 1-7 play card 0-6, ...), to be
//!   softmaxed over the steps that are legal;
//! - **steps** (format version 2 only): the policy over the later building
//!   steps, one dense layer of [`POLICY`] logits per card and step number
//!   (1-7: the step after the card, ...), read from the same last hidden layer.
//!   A move's later steps depend on its card and on how far the move has got;
//!   the steps chosen before them are not inputs (a factorised policy).
//!
//! Weights come from `kingisdead.learning.train` in a small binary file, all
//! numbers little-endian (`docs/learning.md`):
//!
//! ```text
//! b"KIDNET01" or b"KIDNET02"           8 bytes
//! inputs: u32, hidden layers H: u32, H widths: u32 each, values: u32, policy: u32
//! per layer (H hidden, then value, then policy): weights f32[in][out], bias f32[out]
//! version 2: then STEP_CARDS x STEP_DEPTHS step layers (card-major), weights f32[in][POLICY], bias f32[POLICY]
//! ```
//!
//! Weights are stored input-major (`x @ W`, as the training writes them), so a
//! layer adds one row per nonzero input: the features are mostly zeros and
//! the row additions vectorise.

use std::path::Path;

/// The file's first eight bytes (format version 1: no step policy).
pub const MAGIC: &[u8; 8] = b"KIDNET01";
/// The first eight bytes of format version 2 (with the step policy).
pub const MAGIC_STEPS: &[u8; 8] = b"KIDNET02";
/// Cards with a step policy of their own (every card of a hand).
pub const STEP_CARDS: usize = 7;
/// Steps after the card that the step policy covers (a move has at most 8 steps).
pub const STEP_DEPTHS: usize = 7;
/// Value outputs: one per seat, the most seats a game has.
pub const VALUES: usize = 4;
/// Policy outputs: `interfaces/encoding.NUM_ACTIONS`.
pub const POLICY: usize = 21;
/// The widest layer a file may declare (guards against a corrupt header).
const MAX_WIDTH: usize = 1 << 14;

/// One fully connected layer, `out = x @ weights + bias`.
#[derive(Clone, Debug, PartialEq)]
struct Dense {
    inputs: usize,
    outputs: usize,
    /// `inputs` rows of `outputs` numbers.
    weights: Vec<f32>,
    bias: Vec<f32>,
}

impl Dense {
    fn apply(&self, x: &[f32], out: &mut [f32]) {
        let out = &mut out[..self.outputs];
        out.copy_from_slice(&self.bias);
        for (i, &xi) in x[..self.inputs].iter().enumerate() {
            if xi != 0.0 {
                let row = &self.weights[i * self.outputs..(i + 1) * self.outputs];
                for (o, w) in out.iter_mut().zip(row) {
                    *o += xi * w;
                }
            }
        }
    }
}

/// What the network says about a position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Output {
    /// Each seat's chance to win, in (0, 1), seats relative to the viewer.
    pub values: [f32; VALUES],
    /// Unnormalised scores of the first move-building step.
    pub logits: [f32; POLICY],
}

/// Working memory for [`Network::evaluate`], so that an evaluation allocates
/// nothing; it keeps the last hidden layer of the latest evaluation for
/// [`Network::step_logits`].
#[derive(Clone, Debug)]
pub struct Scratch {
    a: Vec<f32>,
    b: Vec<f32>,
    width: usize,
}

/// A loaded network; immutable, shared by every search thread.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    inputs: usize,
    hidden: Vec<Dense>,
    value: Dense,
    policy: Dense,
    /// Format version 2: `STEP_CARDS * STEP_DEPTHS` layers, card-major; empty in version 1.
    steps: Vec<Dense>,
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or_else(|| format!("network file: truncated at byte {}", self.at))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn size(&mut self, what: &str) -> Result<usize, String> {
        let b = self.take(4)?;
        let n = u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize;
        if n == 0 || n > MAX_WIDTH {
            return Err(format!(
                "network file: {what} is {n}, not in 1..={MAX_WIDTH}"
            ));
        }
        Ok(n)
    }

    fn floats(&mut self, n: usize) -> Result<Vec<f32>, String> {
        let b = self.take(n * 4)?;
        let v: Vec<f32> = b
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if v.iter().any(|x| !x.is_finite()) {
            return Err("network file: a weight is not a finite number".into());
        }
        Ok(v)
    }

    fn dense(&mut self, inputs: usize, outputs: usize) -> Result<Dense, String> {
        Ok(Dense {
            inputs,
            outputs,
            weights: self.floats(inputs * outputs)?,
            bias: self.floats(outputs)?,
        })
    }
}

impl Network {
    /// Reads the binary format above; an error names what is wrong (bad
    /// magic, an impossible size, a truncated or overlong file, a weight that
    /// is not finite, head sizes other than [`VALUES`] and [`POLICY`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        let mut r = Reader { bytes, at: 0 };
        let with_steps = match r.take(8).ok() {
            Some(m) if m == &MAGIC[..] => false,
            Some(m) if m == &MAGIC_STEPS[..] => true,
            _ => return Err("network file: not a kingisdead network (bad magic)".into()),
        };
        let inputs = r.size("the input size")?;
        let depth = r.size("the number of hidden layers")?;
        let widths = (0..depth)
            .map(|_| r.size("a hidden width"))
            .collect::<Result<Vec<_>, _>>()?;
        let (values, policy) = (r.size("the value outputs")?, r.size("the policy outputs")?);
        if (values, policy) != (VALUES, POLICY) {
            return Err(format!(
                "network file: heads of {values} values and {policy} policy outputs, expected {VALUES} and {POLICY}"
            ));
        }
        let mut hidden = Vec::with_capacity(depth);
        let mut last = inputs;
        for &w in &widths {
            hidden.push(r.dense(last, w)?);
            last = w;
        }
        let value = r.dense(last, VALUES)?;
        let policy = r.dense(last, POLICY)?;
        let steps = if with_steps {
            (0..STEP_CARDS * STEP_DEPTHS)
                .map(|_| r.dense(last, POLICY))
                .collect::<Result<Vec<_>, _>>()?
        } else {
            Vec::new()
        };
        if r.at != bytes.len() {
            return Err(format!(
                "network file: {} bytes after the last layer",
                bytes.len() - r.at
            ));
        }
        Ok(Network {
            inputs,
            hidden,
            value,
            policy,
            steps,
        })
    }

    /// Reads a network file; the error names the path.
    pub fn load(path: &Path) -> Result<Network, String> {
        let bytes =
            std::fs::read(path).map_err(|e| format!("network file {}: {e}", path.display()))?;
        Network::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The length of the feature vector the network reads.
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// The hidden layers' widths, input side first.
    pub fn widths(&self) -> Vec<usize> {
        self.hidden.iter().map(|d| d.outputs).collect()
    }

    /// Whether the file had the policy over later building steps (format version 2).
    pub fn has_steps(&self) -> bool {
        !self.steps.is_empty()
    }

    pub fn scratch(&self) -> Scratch {
        let width = self.hidden.iter().map(|d| d.outputs).max().unwrap_or(0);
        Scratch {
            a: vec![0.0; width.max(self.inputs)],
            b: vec![0.0; width.max(self.inputs)],
            width: 0,
        }
    }

    /// The values and policy logits of one feature vector.
    ///
    /// Panics if `features` is not [`Network::inputs`] long or `scratch` was
    /// made by another network.
    pub fn evaluate(&self, features: &[f32], scratch: &mut Scratch) -> Output {
        assert_eq!(
            features.len(),
            self.inputs,
            "network: {} features given, the network reads {}",
            features.len(),
            self.inputs
        );
        let Scratch { a, b, width: last } = scratch;
        a[..self.inputs].copy_from_slice(features);
        let mut width = self.inputs;
        for layer in &self.hidden {
            layer.apply(&a[..width], b);
            width = layer.outputs;
            for (x, y) in a[..width].iter_mut().zip(&b[..width]) {
                *x = y.max(0.0);
            }
        }
        let mut out = Output {
            values: [0.0; VALUES],
            logits: [0.0; POLICY],
        };
        self.value.apply(&a[..width], &mut out.values);
        for v in &mut out.values {
            *v = 1.0 / (1.0 + (-*v).exp());
        }
        self.policy.apply(&a[..width], &mut out.logits);
        *last = width;
        out
    }

    /// The logits of building step `step` (1 to [`STEP_DEPTHS`]: the step
    /// after the card is 1) of a move of `card`, for the position of the
    /// latest [`Network::evaluate`] with `scratch`; None without a step policy.
    ///
    /// Panics if `card` or `step` is out of range or nothing was evaluated with `scratch`.
    pub fn step_logits(
        &self,
        scratch: &Scratch,
        card: usize,
        step: usize,
    ) -> Option<[f32; POLICY]> {
        if !self.has_steps() {
            return None;
        }
        assert!(card < STEP_CARDS && (1..=STEP_DEPTHS).contains(&step));
        assert!(
            scratch.width > 0,
            "network: step logits before any evaluation"
        );
        let mut out = [0.0; POLICY];
        self.steps[card * STEP_DEPTHS + step - 1].apply(&scratch.a[..scratch.width], &mut out);
        Some(out)
    }
}

/// Softmax of `logits` over the entries whose `legal` flag is set (the others
/// get 0); all zeros if nothing is legal.
pub fn masked_softmax(logits: &[f32; POLICY], legal: &[bool; POLICY]) -> [f32; POLICY] {
    let mut out = [0.0; POLICY];
    let top = logits
        .iter()
        .zip(legal)
        .filter(|(_, &ok)| ok)
        .map(|(&l, _)| l)
        .fold(f32::NEG_INFINITY, f32::max);
    if top == f32::NEG_INFINITY {
        return out;
    }
    let mut sum = 0.0;
    for ((o, &l), &ok) in out.iter_mut().zip(logits).zip(legal) {
        if ok {
            *o = (l - top).exp();
            sum += *o;
        }
    }
    for o in &mut out {
        *o /= sum;
    }
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// A network file with weights drawn from `seed`, as the training would write it.
    pub(crate) fn random_file(inputs: usize, widths: &[usize], seed: u64) -> Vec<u8> {
        random_file_of(inputs, widths, seed, false)
    }

    /// [`random_file`] in format version 2, with a step policy.
    pub(crate) fn random_file_with_steps(inputs: usize, widths: &[usize], seed: u64) -> Vec<u8> {
        random_file_of(inputs, widths, seed, true)
    }

    fn random_file_of(inputs: usize, widths: &[usize], seed: u64, steps: bool) -> Vec<u8> {
        let mut rng = SplitMix64::new(seed);
        let mut bytes = if steps { MAGIC_STEPS } else { MAGIC }.to_vec();
        for n in [inputs, widths.len()]
            .into_iter()
            .chain(widths.iter().copied())
            .chain([VALUES, POLICY])
        {
            bytes.extend((n as u32).to_le_bytes());
        }
        let mut shapes: Vec<(usize, usize)> = Vec::new();
        let mut last = inputs;
        for &w in widths {
            shapes.push((last, w));
            last = w;
        }
        shapes.extend([(last, VALUES), (last, POLICY)]);
        if steps {
            shapes.extend([(last, POLICY); STEP_CARDS * STEP_DEPTHS]);
        }
        for (fan_in, out) in shapes {
            for _ in 0..(fan_in + 1) * out {
                let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
                bytes.extend(((u - 0.5) / (fan_in as f32).sqrt()).to_le_bytes());
            }
        }
        bytes
    }

    #[test]
    fn a_file_round_trips_and_evaluates_like_the_plain_formula() {
        let bytes = random_file(5, &[4, 3], 1);
        let net = Network::from_bytes(&bytes).unwrap();
        assert_eq!((net.inputs(), net.widths()), (5, vec![4, 3]));
        let x = [0.5f32, 0.0, -1.0, 2.0, 0.25];
        let out = net.evaluate(&x, &mut net.scratch());
        // The same sums written out plainly.
        let dense = |d: &Dense, x: &[f32]| -> Vec<f32> {
            (0..d.outputs)
                .map(|o| {
                    d.bias[o]
                        + (0..d.inputs)
                            .map(|i| x[i] * d.weights[i * d.outputs + o])
                            .sum::<f32>()
                })
                .collect()
        };
        let mut h = x.to_vec();
        for d in &net.hidden {
            h = dense(d, &h).into_iter().map(|v| v.max(0.0)).collect();
        }
        for (got, want) in out.values.iter().zip(dense(&net.value, &h)) {
            assert!((got - 1.0 / (1.0 + (-want).exp())).abs() < 1e-6);
            assert!(*got > 0.0 && *got < 1.0);
        }
        for (got, want) in out.logits.iter().zip(dense(&net.policy, &h)) {
            assert!((got - want).abs() < 1e-5);
        }
    }

    #[test]
    fn step_logits_read_the_last_hidden_layer_of_the_latest_evaluation() {
        let plain = Network::from_bytes(&random_file(5, &[4, 3], 1)).unwrap();
        let mut scratch = plain.scratch();
        let x = [0.5f32, 0.0, -1.0, 2.0, 0.25];
        plain.evaluate(&x, &mut scratch);
        assert!(!plain.has_steps() && plain.step_logits(&scratch, 0, 1).is_none());

        let bytes = random_file_with_steps(5, &[4, 3], 1);
        let net = Network::from_bytes(&bytes).unwrap();
        assert!(net.has_steps());
        // Version 2 is version 1 with the step layers after the policy head.
        assert_eq!(net.value, plain.value);
        let mut scratch = net.scratch();
        let out = net.evaluate(&x, &mut scratch);
        assert_eq!(out, plain.evaluate(&x, &mut plain.scratch()));
        let mut h = x.to_vec();
        for d in &net.hidden {
            let mut next = vec![0.0; d.outputs];
            d.apply(&h, &mut next);
            h = next.into_iter().map(|v| v.max(0.0)).collect();
        }
        for (card, step) in [(0, 1), (3, 4), (6, 7)] {
            let layer = &net.steps[card * STEP_DEPTHS + step - 1];
            let logits = net.step_logits(&scratch, card, step).unwrap();
            for (o, got) in logits.iter().enumerate() {
                let want = layer.bias[o]
                    + (0..3)
                        .map(|i| h[i] * layer.weights[i * POLICY + o])
                        .sum::<f32>();
                assert!((got - want).abs() < 1e-5);
            }
        }
        assert!(Network::from_bytes(&bytes[..bytes.len() - 4])
            .unwrap_err()
            .contains("truncated"));
    }

    #[test]
    fn bad_files_are_refused_with_a_reason() {
        let good = random_file(5, &[4], 2);
        assert!(Network::from_bytes(&good).is_ok());
        let mut magic = good.clone();
        magic[0] = b'X';
        assert!(Network::from_bytes(&magic).unwrap_err().contains("magic"));
        assert!(Network::from_bytes(&good[..good.len() - 1])
            .unwrap_err()
            .contains("truncated"));
        let mut long = good.clone();
        long.push(0);
        assert!(Network::from_bytes(&long).unwrap_err().contains("after"));
        let mut nan = good.clone();
        let at = good.len() - 4;
        nan[at..].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(Network::from_bytes(&nan).unwrap_err().contains("finite"));
        let mut heads = good.clone();
        heads[20..24].copy_from_slice(&3u32.to_le_bytes()); // 3 value outputs
        assert!(Network::from_bytes(&heads)
            .unwrap_err()
            .contains("expected"));
        let mut huge = good;
        huge[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(Network::from_bytes(&huge)
            .unwrap_err()
            .contains("input size"));
    }

    #[test]
    fn masked_softmax_sums_to_one_over_legal_steps() {
        let mut logits = [0.0f32; POLICY];
        logits[1] = 2.0;
        logits[3] = 100.0; // illegal: must not matter
        let mut legal = [false; POLICY];
        legal[0] = true;
        legal[1] = true;
        let p = masked_softmax(&logits, &legal);
        assert!((p[0] + p[1] - 1.0).abs() < 1e-6);
        assert!(p[1] > p[0] && p[3] == 0.0);
        assert_eq!(masked_softmax(&logits, &[false; POLICY]), [0.0; POLICY]);
    }
}
