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
echo "demo: wrote $(ls out/zoneplate_*.png | wc -l) images to out/ (compare out/zoneplate_bilinear_128.png with out/zoneplate_bilinear_aa_128.png)"
