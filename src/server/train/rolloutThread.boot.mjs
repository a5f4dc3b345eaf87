// Worker threads do not run the parent's --import hooks on this Node, so the thread loads TypeScript itself.
import { register } from "tsx/esm/api";

register();
await import("./rolloutThread.ts");
