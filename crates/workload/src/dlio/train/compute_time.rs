//! The computation time of each step, drawn as DLIO draws it: `np.random.normal(mean, stdev)`
//! (or `uniform`) from numpy's global state, absolute value, one draw per step; that state is
//! the one `reconfigure(epoch)` left (it reseeds when a shuffle is on), carried on through the
//! epoch's steps and into the next epoch when nothing reseeds.

use super::numpy_rng::LegacyRandomState;
use super::order::{reconfigure, reconfigure_seeds};
use super::params::{ComputeTime, TrainParams};

/// The per-step computation times of one rank, epoch after epoch.
#[derive(Debug)]
pub struct ComputeDraws {
    params: TrainParams,
    rng: LegacyRandomState,
    /// The iterative sampler's file list as the last `reconfigure` left it.
    files: Vec<u64>,
    epoch: u64,
}

impl ComputeDraws {
    pub fn new(params: &TrainParams) -> Self {
        ComputeDraws {
            params: params.clone(),
            // Used only when reconfigure never seeds (DLIO would be entropy-seeded then).
            rng: LegacyRandomState::seeded(params.seed as u32),
            files: (0..params.num_files).collect(),
            epoch: 0,
        }
    }

    /// Replays `reconfigure(epoch)`; call it for epochs 1, 2, ... in order before their steps.
    pub fn begin_epoch(&mut self, epoch: u64) {
        assert_eq!(epoch, self.epoch + 1, "epochs begin in order");
        self.epoch = epoch;
        if reconfigure_seeds(&self.params) {
            reconfigure(&self.params, epoch, &mut self.files, &mut self.rng);
        }
    }

    /// The next step's computation time in seconds.
    pub fn next_step(&mut self) -> f64 {
        let drawn = match self.params.computation_time {
            ComputeTime::Fixed(seconds) => seconds,
            ComputeTime::Normal { mean, stdev } => self.rng.normal(mean, stdev),
            ComputeTime::Uniform { min, max } => self.rng.uniform(min, max),
        };
        drawn.abs()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dlio::train::numpy_judge::numpy_lines;
    use crate::dlio::train::params::{unet3d_like, Shuffle};

    #[test]
    fn normal_draws_follow_dlios_reseed_per_epoch() {
        // pytorch, sample_shuffle seed: reconfigure(e) seeds 123 + e and shuffles the rank's 168
        // samples; three steps draw from what is left.
        let p = TrainParams {
            computation_time: ComputeTime::Normal {
                mean: 0.323,
                stdev: 0.01,
            },
            ..unet3d_like()
        };
        let mut draws = ComputeDraws::new(&p);
        let mut got = Vec::new();
        for epoch in 1..=2 {
            draws.begin_epoch(epoch);
            for _ in 0..3 {
                got.push(format!("{:?}", draws.next_step()));
            }
        }
        let want = numpy_lines(
            "for e in (1, 2):\n    np.random.seed(123 + e)\n    np.random.shuffle(np.arange(168))\n    for _ in range(3): print(repr(abs(float(np.random.normal(0.323, 0.01)))))",
        );
        assert_eq!(got, want);
    }

    #[test]
    fn without_shuffles_the_stream_runs_on_across_epochs() {
        let p = TrainParams {
            file_shuffle: Shuffle::Off,
            sample_shuffle: Shuffle::Off,
            computation_time: ComputeTime::Normal {
                mean: 0.0,
                stdev: 1.0,
            },
            ..unet3d_like()
        };
        let mut draws = ComputeDraws::new(&p);
        draws.begin_epoch(1);
        let first = [draws.next_step(), draws.next_step(), draws.next_step()];
        draws.begin_epoch(2);
        let next = draws.next_step();
        let mut rng = LegacyRandomState::seeded(123);
        let want: Vec<f64> = (0..4).map(|_| rng.gauss().abs()).collect();
        assert_eq!([first[0], first[1], first[2], next].to_vec(), want);
    }

    #[test]
    fn a_fixed_time_is_every_step() {
        let mut draws = ComputeDraws::new(&unet3d_like());
        draws.begin_epoch(1);
        assert_eq!(draws.next_step(), 0.323);
    }
}
