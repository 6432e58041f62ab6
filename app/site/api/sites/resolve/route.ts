/** Spec 2 §1: the resolve endpoint is also served under `/site/api/sites/resolve` (the CDN address). */
export { DELETE, GET, OPTIONS, PATCH, POST, PUT } from "@/app/api/sites/resolve/route";
