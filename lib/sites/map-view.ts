import { invalid } from "../errors/domain-errors";

/** A map view as asked: the visible box in degrees and the zoom level. */
export type MapView = { west: number; south: number; east: number; north: number; zoom: number };

export const MAX_ZOOM = 22;
/** Grid cells per 256-pixel tile side: a cell is about 64 pixels, the size of a cluster marker. */
const CELLS_PER_TILE = 4;
/** At most this many cells across the box: a huge box at a deep zoom is gridded as if zoomed out. */
const MAX_CELLS_PER_SIDE = 64;

const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?$/i;
const bad = (param: string, why: string) => invalid(`Parameter \`${param}\` ${why}.`, "invalid_map_view");

/**
 * `bbox=west,south,east,north` and `zoom`, checked one by one so the 400 names what is wrong.
 * A box crossing the antimeridian (west > east) is refused: the client asks for its two halves
 * (our catalogues are regional, Leaflet wraps longitudes, and one box keeps the SQL a plain range).
 */
export function parseMapView(bbox: string | undefined, zoom: string | undefined): MapView {
  if (bbox === undefined || !bbox.trim()) throw bad("bbox", "is required: west,south,east,north in degrees");
  const parts = bbox.split(",").map((s) => s.trim());
  if (parts.length !== 4) throw bad("bbox", `must be 4 comma-separated numbers (west,south,east,north), got ${parts.length}`);
  const names = ["west", "south", "east", "north"] as const;
  const v = parts.map((p, i) => {
    if (!NUMBER.test(p) || !Number.isFinite(Number(p))) throw bad("bbox", `has a ${names[i]} that is not a finite number`);
    return Number(p);
  });
  const [west, south, east, north] = v;
  if (west < -180 || west > 180 || east < -180 || east > 180) throw bad("bbox", "has a longitude outside -180..180");
  if (south < -90 || south > 90 || north < -90 || north > 90) throw bad("bbox", "has a latitude outside -90..90");
  if (!(west < east)) throw bad("bbox", "must have west < east (a box across the antimeridian is asked as two boxes)");
  if (!(south < north)) throw bad("bbox", "must have south < north");
  if (zoom === undefined || !/^\d{1,2}$/.test(zoom.trim()) || Number(zoom) > MAX_ZOOM) throw bad("zoom", `must be an integer from 0 to ${MAX_ZOOM}`);
  return { west, south, east, north, zoom: Number(zoom) };
}

/**
 * The grid's cell side in degrees: a quarter of a Web Mercator tile at the zoom, never finer than
 * the box split into `MAX_CELLS_PER_SIDE`, so the number of cells (and of pins) stays bounded
 * whatever box and zoom a caller sends. The grid is anchored at (-180, -90), not at the box, so a
 * cluster does not jump when the map pans.
 */
export function cellSize(v: MapView): number {
  const byZoom = 360 / 2 ** v.zoom / CELLS_PER_TILE;
  const byBox = Math.max(v.east - v.west, v.north - v.south) / MAX_CELLS_PER_SIDE;
  return Math.max(byZoom, byBox);
}
