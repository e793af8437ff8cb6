/** Package identity, used by the workspace smoke tests until the package has real exports. */
export const packageName = "@berth/starlark";
