/* Inside the renderer: a pinhole camera over the table plane.
 *
 * Table coordinates are millimetres with z = 0 on the table and z < 0 above
 * it, so (x right, y towards the camera's base, z down) is right-handed like
 * camera coordinates (x right, y down, z forward) and a camera straight
 * above with no turn sees x to the right and y downwards. */
#ifndef TS_RENDER_CAMERA_H
#define TS_RENDER_CAMERA_H

#include <stdint.h>

#include "cv/cvwrap.h"

typedef struct {
    /* chosen */
    double tilt;     /* optical axis from straight down, radians */
    double azimuth;  /* side the camera stands on, radians about the vertical (0 = +y) */
    double roll;     /* turn about the optical axis */
    double fov;      /* horizontal field of view, radians */
    double distance; /* camera centre to the point it looks at, mm */
    /* derived */
    double f, cx, cy; /* focal length and principal point, pixels */
    double R[9];      /* rows: camera x, y, z axes in table coordinates */
    double C[3];      /* camera centre */
    double H[9];      /* table (x, y) -> image pixel */
    double Hinv[9];   /* image pixel -> table (x, y) */
    int w, h;
} ts_camera;

/* Places the camera (tilt, azimuth, roll and fov already set) so the table
 * box view (x0, y0, x1, y1) fills the given fraction of the w x h frame,
 * centred up to the slack left by jitter (0..1). */
void ts_camera_fit(ts_camera *cam, const float view[4], int w, int h, double fill, double jx,
                   double jy);

/* Table point -> image pixel (no lens distortion). */
ts_pt ts_camera_project(const ts_camera *cam, double x, double y);
/* Image pixel -> table point. */
ts_pt ts_camera_unproject(const ts_camera *cam, double u, double v);
/* Depth (distance along the optical axis) of the table point seen at pixel (u, v). */
double ts_camera_depth(const ts_camera *cam, double u, double v);

#endif
