# OpenCV (Python cv2) on the affine and flip cases of bench_hres, 1 thread:
# the peer column of the 2026-11-21 table in RESULTS.md (machines without the
# OpenCV C++ headers). Issue 5 replaces it with the full comparison tool.
import time, numpy as np, cv2, sys
cv2.setNumThreads(1)
def med(f, t=0.3):
    f(); ts=[]; s=time.perf_counter()
    while len(ts)<7 or (len(ts)<2000 and time.perf_counter()-s<t):
        a=time.perf_counter(); f(); ts.append((time.perf_counter()-a)*1e6)
    return sorted(ts)[len(ts)//2]
th=[0.8952,-0.1579,0.05,0.1579,0.8952,-0.03]
def pix(h,w,ac):
    def norm(size): return (2.0/max(size-1,1), -1.0) if ac else (2.0/size, 1.0/size-1)
    ax,bx=norm(w); ay,by=norm(h)
    sx=(w-1)/2 if ac else w/2; tx=sx if ac else sx-0.5
    sy=(h-1)/2 if ac else h/2; ty=sy if ac else sy-0.5
    t=th
    return np.array([[sx*t[0]*ax, sx*t[1]*ay, sx*(t[0]*bx+t[1]*by+t[2])+tx],[sy*t[3]*ax, sy*t[4]*ay, sy*(t[3]*bx+t[4]*by+t[5])+ty]])
rng=np.random.default_rng(1)
print("cv2", cv2.__version__)
for ac in [True, False]:
  for mode,interp in [("bilinear",cv2.INTER_LINEAR),("nearest",cv2.INTER_NEAREST),("bicubic",cv2.INTER_CUBIC)]:
    for dt in [np.uint8, np.float32]:
        imgs=[(rng.random((345,456,3))*255).astype(dt) for _ in range(2)]
        m=pix(345,456,ac)
        f=lambda: [cv2.warpAffine(i, m, (456,345), flags=interp|cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_CONSTANT) for i in imgs]
        print(f"affine 2x3x345x456 {mode}{' ac' if ac else ''} {np.dtype(dt).name} cv2 {med(f):.1f} us")
for h,w in [(224,224),(256,256),(1080,1920)]:
    for dt in [np.uint8, np.float32]:
        img=(rng.random((h,w,3))*255).astype(dt); out=np.empty_like(img)
        for name,code in [("hflip",1),("vflip",0)]:
            print(f"{name} 1x3x{h}x{w} {np.dtype(dt).name} cv2 {med(lambda: cv2.flip(img, code, dst=out)):.1f} us")
        print(f"copy 1x3x{h}x{w} {np.dtype(dt).name} numpy {med(lambda: np.copyto(out, img)):.1f} us")
