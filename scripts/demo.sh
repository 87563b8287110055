#!/usr/bin/env bash
# Builds (with set-up) and resizes the zone-plate test pattern with each mode,
# with and without antialias, into out/. The zone plate's rings get finer
# towards the corners: plain bilinear/bicubic downscaling aliases them into
# false rings (moire); antialias removes them.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
mkdir -p out
hres=build/bin/hres
in=data/zoneplate.png
for args in "--mode nearest" "--mode bilinear" "--mode bilinear --antialias" \
            "--mode bicubic" "--mode bicubic --antialias"; do
    name=$(echo "$args" | sed 's/--mode //; s/ --antialias/_aa/')
    "$hres" resize "$in" "out/zoneplate_${name}_128.png" --size 128x128 $args
done
"$hres" resize "$in" out/zoneplate_bicubic_x1.5.png --scale 1.5 --mode bicubic --layout nhwc
"$hres" resize "$in" out/zoneplate_bilinear_aa_128.png --size 128x128 --mode bilinear --antialias --bench 50
# The same on the GPU where there is one (bit-identical to the CPU's output).
err=$(mktemp)
if "$hres" resize "$in" out/zoneplate_bilinear_aa_128_cuda.png --size 128x128 --mode bilinear --antialias \
        --device cuda --bench 50 2>"$err"; then
    cmp -s out/zoneplate_bilinear_aa_128.png out/zoneplate_bilinear_aa_128_cuda.png &&
        echo "demo: the CUDA result is bit-identical to the CPU's"
else
    echo "demo: no GPU run ($(sed 's/^hres: error: //' "$err"))"
fi
rm -f "$err"
echo "demo: wrote $(ls out/zoneplate_*.png | wc -l) images to out/ (compare out/zoneplate_bilinear_128.png with out/zoneplate_bilinear_aa_128.png)"
