/** Registers the built-in methods of every core type (side-effect imports). */
import "./string-methods.js";
import "./list-methods.js";
import "./dict-methods.js";
import "./set-methods.js";
import "./bytes-methods.js";
