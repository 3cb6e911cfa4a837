// linkify-it (npm), as its README shows: new LinkifyIt(), then .match(text), each match's .url.
const fs = require("fs");
const { LinkifyIt } = require("linkify-it");
const linkify = new LinkifyIt();
const text = fs.readFileSync(process.argv[2], "utf8");
for (const match of linkify.match(text) || []) console.log(match.url);
