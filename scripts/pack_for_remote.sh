#!/usr/bin/env bash
# Packs what the benches need to run on another x86-64 Linux machine that lacks Debian's
# packages (a lent 16-core machine, say): gnnpart, gnnpart-train and gnnpart-mpi built for generic
# x86-64 (-DGNNPART_NATIVE=OFF, so another processor can run them), their oneTBB, fmt, METIS and
# zlib libraries, evalpart, gpmetis, Debian's Open MPI tree and PMIx plugins (relocated at run time with
# OPAL_PREFIX), taskset, ip and tc, and the datasets the cost bench reads. Writes DIR/env.sh,
# which a run sources from the repository root:  . DIR/env.sh  (then scripts/bench_*.sh as usual,
# BUILD_DIR and GNNPART_SHARED_DIR pointing into DIR).
#   scripts/pack_for_remote.sh DIR [DATASET...]   (default datasets: cora citeseer pubmed)
# DIR should be a git-ignored folder of the repository, so that it travels with the working tree.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ $# -ge 1 ] || { echo "usage: scripts/pack_for_remote.sh DIR [DATASET...]" >&2; exit 1; }
dir=$1
shift
datasets=("$@")
[ ${#datasets[@]} -eq 0 ] && datasets=(cora citeseer pubmed)
shared=${GNNPART_SHARED_DIR:-$(cd .. && pwd)/shared}
multiarch=/usr/lib/x86_64-linux-gnu

mkdir -p "$dir"/{bin,lib,fallback,build,shared/datasets}
build_log=$dir/build.log
{ cmake -S . -B "$dir/cmake-build" -DCMAKE_BUILD_TYPE=Release -DGNNPART_NATIVE=OFF &&
  cmake --build "$dir/cmake-build" -j2 --target gnnpart gnnpart-train gnnpart-mpi; } \
  >"$build_log" 2>&1 || { echo "pack_for_remote: the build failed (see $build_log)" >&2; exit 1; }
cp "$dir/cmake-build"/{gnnpart,gnnpart-train,gnnpart-mpi} "$dir/build/"
# The independent checker the benches evaluate with, for generic x86-64 too.
g++ -O3 -std=c++17 -w -o "$dir/build/evalpart" "$shared/tools/evalpart/evalpart.cpp" -lz
cp /usr/bin/gpmetis /usr/bin/taskset /usr/sbin/ip /usr/sbin/tc "$dir/bin/"

# Every shared library the programs load that is not the C library itself.
libs() { ldd "$@" | awk '$3 ~ /^\// {print $3}' | grep -vE '/(libc|libm|libpthread|libdl|librt|ld-linux[^/]*)\.so' | sort -u; }
for lib in $(libs "$dir"/build/* "$dir"/bin/*); do
  case $(basename "$lib") in
    libstdc++.so.*|libgcc_s.so.*) cp -L "$lib" "$dir/fallback/" ;;  # only where the remote's are older
    *) cp -L "$lib" "$dir/lib/" ;;
  esac
done

# Open MPI as Debian lays it out (prefix /usr), relocated by OPAL_PREFIX at run time.
mkdir -p "$dir/ompi/lib/x86_64-linux-gnu" "$dir/ompi/share" "$dir/ompi/etc" "$dir/ompi/bin"
cp -a "$multiarch/openmpi" "$dir/ompi/lib/x86_64-linux-gnu/"
rm -rf "$dir/ompi/lib/x86_64-linux-gnu/openmpi/include"
cp -a /usr/share/openmpi "$dir/ompi/share/"
cp -a /etc/openmpi/. "$dir/ompi/etc/"
cp /usr/bin/orterun "$dir/ompi/bin/mpirun"
cp /usr/bin/orted "$dir/ompi/bin/"
cp -a "$multiarch/pmix2" "$dir/lib/"
for lib in $(libs "$dir"/ompi/lib/x86_64-linux-gnu/openmpi/lib/openmpi3/mca_{btl_vader,btl_tcp,btl_self,pml_ob1}.so); do
  cp -L -n "$lib" "$dir/lib/"
done

for d in "${datasets[@]}"; do
  for f in "$shared/datasets/$d".{edges,labels,train,val,test}.gz; do
    [ -e "$f" ] && cp "$f" "$dir/shared/datasets/"
  done
done

cat > "$dir/env.sh" <<'ENV'
# Sourced from the repository root on the remote machine.
pack=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export LD_LIBRARY_PATH=$pack/lib:$pack/ompi/lib/x86_64-linux-gnu/openmpi/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OPAL_PREFIX=$pack/ompi OPAL_SYSCONFDIR=$pack/ompi/etc
export PMIX_MCA_mca_base_component_path=$pack/lib/pmix2/lib/pmix
export OMPI_MCA_mca_base_component_show_load_errors=0 OMPI_MCA_pml=ob1
export PATH=$pack/ompi/bin:$PATH:$pack/bin
export BUILD_DIR=$pack/build GNNPART_SHARED_DIR=$pack/shared BENCH_NO_BUILD=1
"$pack/build/gnnpart" --version >/dev/null 2>&1 || export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$pack/fallback
ENV
rm -rf "$dir/cmake-build"
echo "packed into $dir ($(du -sh "$dir" | cut -f1)); on the remote: . $dir/env.sh" >&2
