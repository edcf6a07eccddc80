export * from "./common.js";
export * from "./liars_dice.js";
export * from "./okey.js";
export * from "./mexican_train.js";
