//! Where the networks' arithmetic runs: the backend chosen once per process ([`Compute`]: burn's
//! pure-Rust `flex` CPU backend, or with the `gpu` feature and [`use_compute`] a GPU through
//! Vulkan), its devices, and on how many threads its kernels run.

use burn::tensor::Device;
#[cfg(feature = "gpu")]
use burn::tensor::{Tensor, TensorData};

/// Where the networks' arithmetic runs, chosen once per process (before any network exists).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compute {
    /// burn's pure-Rust `flex` backend: bit-reproducible for one build (the default).
    Cpu,
    /// The system's default GPU through Vulkan (cargo feature `gpu`): faster at scale, but its
    /// float kernels are not bit-reproducible, so results are statistical replicates, not
    /// copies.
    Gpu,
}

impl Compute {
    pub fn name(self) -> &'static str {
        match self {
            Compute::Cpu => "cpu",
            Compute::Gpu => "gpu",
        }
    }
}

static COMPUTE: std::sync::OnceLock<Compute> = std::sync::OnceLock::new();

/// Run every later network on `compute`. `Err` when this build lacks the backend, when the GPU
/// does not answer, or when a different choice was made (or a network built) earlier in the
/// process.
pub fn use_compute(compute: Compute) -> Result<(), String> {
    if compute == Compute::Gpu && COMPUTE.get() != Some(&Compute::Gpu) {
        probe_gpu()?;
    }
    let chosen = *COMPUTE.get_or_init(|| compute);
    if chosen != compute {
        return Err(format!(
            "the DQN backend is already {chosen:?} in this process"
        ));
    }
    Ok(())
}

#[cfg(not(feature = "gpu"))]
fn probe_gpu() -> Result<(), String> {
    Err(
        "this rephyre was built without the GPU backend; build it with \
         `cargo build --release -p harness --features gpu`"
            .into(),
    )
}

/// One small product on the GPU, so that a missing driver is an error here: burn finds none only
/// at a network's first operation, and panics then on its device thread.
#[cfg(feature = "gpu")]
fn probe_gpu() -> Result<(), String> {
    use std::sync::{Arc, Mutex};
    let first_panic = Arc::new(Mutex::new(None::<String>));
    let seen = Arc::clone(&first_panic);
    let hook = std::panic::take_hook();
    // Quiet while probing (the process's hook would call the refusal a bug); keep the first
    // message, which names what is missing (the device thread's, not the caller's).
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| info.payload().downcast_ref::<&str>().map(|m| m.to_string()));
        if let Ok(mut slot) = seen.lock() {
            slot.get_or_insert(message.unwrap_or_default());
        }
    }));
    let result = std::panic::catch_unwind(|| {
        let device = gpu_device();
        let t = Tensor::<1>::from_data(TensorData::new(vec![1.0f32, 2.0], [2]), &device);
        t.mul_scalar(2.0)
            .into_data()
            .convert::<f32>()
            .try_to_vec::<f32>()
            .ok()
    });
    std::panic::set_hook(hook);
    match result {
        Ok(Some(v)) if v == [2.0, 4.0] => Ok(()),
        Ok(v) => Err(format!("the GPU computed {v:?} for [2.0, 4.0]")),
        Err(_) => {
            let why = first_panic
                .lock()
                .ok()
                .and_then(|m| m.clone())
                .unwrap_or_default();
            Err(format!(
                "no GPU answered through Vulkan ({}); it needs a Vulkan loader \
                 (libvulkan.so.1) and the GPU driver's ICD (VK_DRIVER_FILES can name its file)",
                why.lines().next().unwrap_or("no reason given")
            ))
        }
    }
}

/// The system's default GPU, through Vulkan.
#[cfg(feature = "gpu")]
fn gpu_device() -> Device {
    Device::vulkan(burn::tensor::DeviceKind::DefaultDevice)
}

/// The backend chosen by [`use_compute`] (the CPU when none was).
pub fn compute() -> Compute {
    *COMPUTE.get_or_init(|| Compute::Cpu)
}

/// The device of [`compute`], without gradients (inference, loading).
pub fn plain_device() -> Device {
    match compute() {
        Compute::Cpu => Device::flex(),
        #[cfg(feature = "gpu")]
        Compute::Gpu => gpu_device(),
        #[cfg(not(feature = "gpu"))]
        Compute::Gpu => unreachable!("use_compute refuses the GPU without the feature"),
    }
}

/// The device every DQN trains on, with gradients.
pub fn train_device() -> Device {
    plain_device().autodiff()
}

/// Run `f` with burn's kernels on one thread. The flex backend splits work across the current
/// rayon pool; a one-thread pool makes every float reduction run in one fixed order, so the
/// same seed gives the same weights whatever the machine's core count (parallelism comes from
/// training several folds at once instead).
pub fn single_threaded<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    match rayon::ThreadPoolBuilder::new().num_threads(1).build() {
        Ok(pool) => pool.install(f),
        // Without a pool of our own we cannot pin the thread count: still correct, and
        // deterministic whenever the caller's pool has one thread.
        Err(_) => f(),
    }
}

/// `f` over `items` on up to `threads` plain threads (each takes the next item), results in
/// `items`' order. Plain threads, not a rayon pool: a rayon worker waiting on a DQN's one-thread
/// kernel pool would start the next item meanwhile, so every item would run at once whatever
/// `threads` says; plain threads just wait. A worker that panics leaves `None` in its slot.
pub fn on_plain_threads<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<Option<R>> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let slots: Vec<std::sync::Mutex<Option<R>>> =
        items.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, items.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let r = f(item);
                if let Ok(mut slot) = slots[i].lock() {
                    *slot = Some(r);
                }
            });
        }
    });
    slots
        .into_iter()
        .map(|m| m.into_inner().ok().flatten())
        .collect()
}
