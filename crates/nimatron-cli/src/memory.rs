//! How much memory a run may plan for by default: 90% of the smaller of
//! the machine's available memory (`MemAvailable` in `/proc/meminfo`) and
//! the memory limit of the process's control group (cgroup v2 `memory.max`,
//! cgroup v1 `memory.limit_in_bytes`), which is how Slurm's `--mem`, a
//! Kubernetes memory limit, Docker's `--memory` and systemd's `MemoryMax`
//! are enforced. A process past its cgroup's limit is killed however much
//! memory the machine has free.
//!
//! The reading is split from the files so that it can be tested on fake
//! ones: [`usable_memory`] takes the text of `/proc/meminfo` and
//! `/proc/self/cgroup` and the directory where the cgroup filesystems are
//! mounted.

use std::fs;
use std::path::{Path, PathBuf};

/// Where cgroup filesystems are mounted on Linux.
const CGROUP_ROOT: &str = "/sys/fs/cgroup";

/// Used when nothing can be read (not Linux, or `/proc` hidden).
const FALLBACK: u64 = 8 << 30;

/// A cgroup v1 limit at or above this is "no limit" (the kernel writes
/// `PAGE_COUNTER_MAX` pages, 9 223 372 036 854 771 712 bytes with 4 KiB pages).
const V1_UNLIMITED: u64 = 1 << 62;

/// The default `--memory-limit`: 90% of [`usable_memory`] on this machine.
pub(crate) fn default_memory_limit() -> u64 {
    let meminfo = fs::read_to_string("/proc/meminfo").ok();
    let cgroup = fs::read_to_string("/proc/self/cgroup").ok();
    let usable = usable_memory(
        meminfo.as_deref(),
        cgroup.as_deref(),
        Path::new(CGROUP_ROOT),
    );
    usable.map_or(FALLBACK, |bytes| bytes / 10 * 9)
}

/// The memory this process can use: the smaller of `MemAvailable` and its
/// cgroup's limit, whichever are known (`None` if neither is).
pub(crate) fn usable_memory(
    meminfo: Option<&str>,
    self_cgroup: Option<&str>,
    cgroup_root: &Path,
) -> Option<u64> {
    let available = meminfo.and_then(mem_available);
    let limit = self_cgroup.and_then(|text| cgroup_limit(text, cgroup_root));
    match (available, limit) {
        (Some(a), Some(l)) => Some(a.min(l)),
        (a, l) => a.or(l),
    }
}

/// `MemAvailable` from the text of `/proc/meminfo`, in bytes.
pub(crate) fn mem_available(meminfo: &str) -> Option<u64> {
    meminfo
        .lines()
        .find(|l| l.starts_with("MemAvailable:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<u64>().ok())
        .map(|kb| kb.saturating_mul(1024))
}

/// The tightest memory limit on the process's cgroup and the cgroups above
/// it (a parent's limit binds its children too), from the text of
/// `/proc/self/cgroup` and the files under `root` (`/sys/fs/cgroup`):
///
/// - cgroup v2 (the line `0::PATH`): `root/PATH/memory.max`, `max` meaning
///   no limit;
/// - cgroup v1 (a line `ID:...memory...:PATH`):
///   `root/memory/PATH/memory.limit_in_bytes`, a huge number meaning none.
///
/// Inside a container the cgroup's own directory is usually mounted as
/// the root and `PATH` names a directory that does not exist there; every
/// ancestor of `PATH` down to the root is read, so the root's file, the
/// container's limit, is still found. `None` if no limit is set.
pub(crate) fn cgroup_limit(self_cgroup: &str, root: &Path) -> Option<u64> {
    let mut best: Option<u64> = None;
    for line in self_cgroup.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(id), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let (base, file) = if id == "0" && controllers.is_empty() {
            (root.to_path_buf(), "memory.max")
        } else if controllers.split(',').any(|c| c == "memory") {
            (root.join("memory"), "memory.limit_in_bytes")
        } else {
            continue;
        };
        for dir in ancestors(&base, path) {
            let Ok(text) = fs::read_to_string(dir.join(file)) else {
                continue;
            };
            let text = text.trim();
            let limit = if text == "max" {
                None
            } else {
                text.parse::<u64>().ok().filter(|&b| b < V1_UNLIMITED)
            };
            if let Some(l) = limit {
                best = Some(best.map_or(l, |b| b.min(l)));
            }
        }
    }
    best
}

/// `base/PATH`, then each parent of it down to `base` itself. Components
/// that would climb out of `base` (`..`, as a cgroup outside the
/// namespace is shown) are dropped.
fn ancestors(base: &Path, path: &str) -> Vec<PathBuf> {
    let parts: Vec<&str> = path
        .split('/')
        .filter(|p| !p.is_empty() && *p != "." && *p != "..")
        .collect();
    (0..=parts.len())
        .rev()
        .map(|k| parts[..k].iter().fold(base.to_path_buf(), |d, p| d.join(p)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const GIB: u64 = 1 << 30;

    /// A fake `/sys/fs/cgroup` in a temporary directory.
    struct FakeRoot(PathBuf);

    impl FakeRoot {
        fn new(name: &str) -> FakeRoot {
            let dir =
                std::env::temp_dir().join(format!("nimatron-cgroup-{name}-{}", std::process::id()));
            let _ = fs::remove_dir_all(&dir);
            fs::create_dir_all(&dir).unwrap();
            FakeRoot(dir)
        }

        fn write(&self, rel: &str, text: &str) {
            let path = self.0.join(rel);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
    }

    impl Drop for FakeRoot {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    const MEMINFO: &str =
        "MemTotal:       24683656 kB\nMemFree:         1000000 kB\nMemAvailable:   20971520 kB\n";

    #[test]
    fn mem_available_is_read_in_bytes() {
        assert_eq!(mem_available(MEMINFO), Some(20 * GIB));
        assert_eq!(mem_available("MemTotal: 5 kB\n"), None);
        assert_eq!(mem_available("MemAvailable: lots kB\n"), None);
    }

    #[test]
    fn cgroup_v2_limit_of_a_slurm_job_binds() {
        // Slurm on cgroup v2: the step's cgroup, with --mem=3G on the job
        // above it and a looser limit on the step itself.
        let root = FakeRoot::new("v2");
        let job = "system.slice/slurmstepd.scope/job_42";
        root.write(&format!("{job}/memory.max"), "3221225472\n");
        root.write(&format!("{job}/step_0/memory.max"), "max\n");
        root.write(&format!("{job}/step_0/user/task_0/memory.max"), "max\n");
        root.write("system.slice/memory.max", "max\n");
        let cgroup = format!("0::/{job}/step_0/user/task_0\n");
        assert_eq!(cgroup_limit(&cgroup, &root.0), Some(3 * GIB));
        assert_eq!(
            usable_memory(Some(MEMINFO), Some(&cgroup), &root.0),
            Some(3 * GIB)
        );
        // Without a limit anywhere, MemAvailable decides.
        let free = "0::/system.slice/other.service\n";
        root.write("system.slice/other.service/memory.max", "max\n");
        assert_eq!(cgroup_limit(free, &root.0), None);
        assert_eq!(
            usable_memory(Some(MEMINFO), Some(free), &root.0),
            Some(20 * GIB)
        );
    }

    #[test]
    fn cgroup_v2_in_a_container_reads_the_namespace_root() {
        // A Kubernetes pod with a private cgroup namespace sees its own
        // cgroup as `/`, its limit in the root's memory.max.
        let root = FakeRoot::new("v2ns");
        root.write("memory.max", "536870912\n");
        assert_eq!(cgroup_limit("0::/\n", &root.0), Some(GIB / 2));
        // A path from outside the namespace climbs with `..`; the root's
        // file still counts.
        assert_eq!(cgroup_limit("0::/../../kubepods\n", &root.0), Some(GIB / 2));
        // The limit is below MemAvailable: it wins.
        assert_eq!(
            usable_memory(Some(MEMINFO), Some("0::/\n"), &root.0),
            Some(GIB / 2)
        );
        // Above MemAvailable: MemAvailable wins.
        root.write("memory.max", &format!("{}\n", 64 * GIB));
        assert_eq!(
            usable_memory(Some(MEMINFO), Some("0::/\n"), &root.0),
            Some(20 * GIB)
        );
    }

    #[test]
    fn cgroup_v1_memory_controller_is_found_among_others() {
        let root = FakeRoot::new("v1");
        // Docker on cgroup v1: the host path is shown, the container's
        // cgroup is mounted at memory/.
        let cgroup = "12:pids:/docker/abc\n11:memory:/docker/abc\n10:cpu,cpuacct:/docker/abc\n1:name=systemd:/docker/abc\n";
        root.write("memory/memory.limit_in_bytes", "2147483648\n");
        assert_eq!(cgroup_limit(cgroup, &root.0), Some(2 * GIB));
        // On the host the full path exists; unlimited ancestors are ignored.
        root.write("memory/memory.limit_in_bytes", "9223372036854771712\n");
        root.write(
            "memory/docker/memory.limit_in_bytes",
            "9223372036854771712\n",
        );
        root.write("memory/docker/abc/memory.limit_in_bytes", "1073741824\n");
        assert_eq!(cgroup_limit(cgroup, &root.0), Some(GIB));
        // A joined controller list (`cpuacct,memory`) counts too.
        let joined = "4:cpuacct,memory:/docker/abc\n";
        assert_eq!(cgroup_limit(joined, &root.0), Some(GIB));
        // This machine's layout: v1 memory with no limit, v2 unified
        // without memory.max.
        let unlimited = "4:memory:/process_api/93987d74\n0::/\n";
        root.write(
            "memory/process_api/93987d74/memory.limit_in_bytes",
            "9223372036854771712\n",
        );
        root.write(
            "memory/process_api/memory.limit_in_bytes",
            "9223372036854771712\n",
        );
        root.write("memory/memory.limit_in_bytes", "9223372036854771712\n");
        assert_eq!(cgroup_limit(unlimited, &root.0), None);
    }

    #[test]
    fn unreadable_or_odd_files_mean_no_limit() {
        let root = FakeRoot::new("odd");
        root.write("memory.max", "lots\n");
        assert_eq!(cgroup_limit("0::/\n", &root.0), None);
        assert_eq!(cgroup_limit("garbage\n\n::\n", &root.0), None);
        assert_eq!(cgroup_limit("0::/no/such/dir\n", &root.0), None);
        assert_eq!(usable_memory(None, None, &root.0), None);
        assert_eq!(
            usable_memory(None, Some("0::/\n"), &root.0),
            None,
            "an unparsable memory.max is no limit"
        );
        root.write("memory.max", "1073741824\n");
        assert_eq!(usable_memory(None, Some("0::/\n"), &root.0), Some(GIB));
    }
}
